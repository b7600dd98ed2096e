import { ignoredText, MAX_IGNORED_LISTED, type IgnoredParam } from '../../lib/api/ignored-params';
import { linkTo } from '../../lib/api/context';

/**
 * A link with parameters this page does not read (a misspelt filter) opens the view, and says
 * above it which parameters it ignored and what they may have meant, with the same view's link
 * without them: never an unfiltered view that looks filtered.
 */
export function IgnoredParams({
  query: { ignored, params: kept },
  page,
  path,
  context,
}: {
  /** pageQuery's answer: what it ignored, and the parameters it read (which the link keeps). */
  query: { ignored: readonly IgnoredParam[]; params: URLSearchParams };
  /** The page's name as the navigation shows it, and its path. */
  page: string;
  path: string;
  context: string | null;
}) {
  if (ignored.length === 0) return null;
  const withoutThem = linkTo(path, kept, context);
  const listed = ignored.slice(0, MAX_IGNORED_LISTED);
  const more = ignored.length - listed.length;
  return (
    <div
      role="status"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="ignored-params"
    >
      <p className="font-semibold">
        {ignored.length === 1
          ? `This link has a parameter ${page} does not read; it was ignored:`
          : `This link has ${ignored.length} parameters ${page} does not read; they were ignored:`}
      </p>
      <ul className="ml-4 list-disc">
        {listed.map((p) => (
          <li key={p.name}>
            <code className="break-all">{ignoredText(p)}</code>
            {p.meant ? (
              <>
                {' '}
                (did you mean <code>{p.meant}</code>?)
              </>
            ) : null}
          </li>
        ))}
        {more > 0 ? <li>and {more} more</li> : null}
      </ul>
      <p className="mt-1">
        <a className="text-blue-800 underline" href={withoutThem}>
          Open this view without them
        </a>
      </p>
    </div>
  );
}
