import { ErrorPanel } from './ErrorPanel';

/**
 * A page whose link carries a parameter meshdx cannot use (a 400's error, naming it) or names a
 * namespace the cluster does not have (a 404's) says so instead of showing another view.
 */
export function ParamProblem({
  problem,
}: {
  problem: { status: number; code: string; message: string; hint?: string };
}) {
  return (
    <ErrorPanel
      title={
        problem.status === 404
          ? 'This link names something the cluster does not have'
          : 'This link has a parameter meshdx cannot use'
      }
      code={problem.code}
      message={problem.message}
      hint={problem.hint}
    />
  );
}
