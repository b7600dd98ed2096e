import type { LatePart } from '../../lib/api/late';

/** What the view could not read by its deadline: said above the view, never shown as zeros. */
export function LateNote({ late }: { late: readonly LatePart[] | undefined }) {
  if (!late || late.length === 0) return null;
  return (
    <div
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="late-note"
    >
      <p className="font-semibold">Answered before all of this was read:</p>
      <ul className="ml-4 list-disc">
        {late.map((l) => (
          <li key={l.part}>
            <span className="font-medium">{l.part}</span>: {l.detail}
          </li>
        ))}
      </ul>
    </div>
  );
}
