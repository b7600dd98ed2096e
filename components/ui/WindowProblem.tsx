import { ErrorPanel } from './ErrorPanel';

/**
 * A link whose time window cannot be shown says so, naming the parameter, and offers the view
 * without a window, instead of quietly showing another window.
 */
export function WindowProblem({
  problem,
  withoutWindow,
}: {
  problem: { code: string; message: string; hint?: string };
  withoutWindow: string;
}) {
  return (
    <>
      <ErrorPanel
        title="This link's time window cannot be shown"
        code={problem.code}
        message={problem.message}
        hint={problem.hint}
      />
      <p className="mt-3 text-sm">
        <a className="text-blue-700 underline" href={withoutWindow}>
          Open the view without a window
        </a>
      </p>
    </>
  );
}
