import { PageTitle } from './Card';
import { ErrorPanel } from './ErrorPanel';

/**
 * A page whose link carries a parameter meshdx cannot use (a 400's error, naming it) or names a
 * namespace the cluster does not have (a 404's) says so under its title instead of showing
 * another view.
 */
export function ParamProblem({
  title,
  subtitle,
  problem,
}: {
  /** The page's title, shown above the problem (left out where the page shows its own). */
  title?: string;
  subtitle?: string;
  problem: { status: number; code: string; message: string; hint?: string };
}) {
  return (
    <>
      {title ? <PageTitle title={title} subtitle={subtitle} /> : null}
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
    </>
  );
}
