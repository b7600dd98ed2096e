import type { ArchiveInfo } from './api';

/**
 * On every page of an archive context: that it shows an `istioctl bug-report` archive, when it
 * was captured (and how that is known), and what it lacks or skipped, each with its reason.
 */
export function ArchiveNote({ archive }: { archive: ArchiveInfo }) {
  const captured = archive.capturedAt
    ? `${archive.capturedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC`
    : 'at an unknown time';
  const lacks = archive.missing.length + archive.problems.length;
  return (
    <details className="text-sm text-amber-200" data-testid="archive-note">
      <summary className="cursor-pointer whitespace-nowrap">
        archive {archive.name}, captured {captured}
        {lacks > 0 ? `, lacks ${lacks} part${lacks === 1 ? '' : 's'}` : ''}
      </summary>
      <div className="absolute right-4 z-20 mt-1 max-h-96 max-w-3xl overflow-auto rounded border border-slate-700 bg-slate-900 p-3 text-left text-slate-200 shadow-lg">
        <p>
          An istioctl bug-report ({archive.format}, {archive.entries} entries, {archive.proxies}{' '}
          proxies, {archive.istiods} istiod). Captured: {archive.capturedHow}. Every view shows the
          cluster as it was then; what the archive lacks is unknown, never zero.
        </p>
        {archive.missing.length > 0 && (
          <ul className="mt-2 list-disc pl-5" data-testid="archive-missing">
            {archive.missing.map((m) => (
              <li key={m.part}>
                <span className="font-mono">{m.part}</span>: {m.reason}
              </li>
            ))}
          </ul>
        )}
        {archive.problems.length > 0 && (
          <ul className="mt-2 list-disc pl-5" data-testid="archive-problems">
            {archive.problems.map((p, i) => (
              <li key={`${p.entry ?? ''}-${i}`}>{p.message}</li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
