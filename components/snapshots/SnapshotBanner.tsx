import type { SnapshotInfo } from './api';

/** What a snapshot page shows first: frozen when, by whom, from which URL; nothing here is live. */
export function SnapshotBanner({ info }: { info: SnapshotInfo }) {
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      role="note"
      data-testid="snapshot-banner"
    >
      <p>
        <strong>Snapshot, read-only.</strong> Frozen{' '}
        <time dateTime={info.frozenAt}>
          {info.frozenAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}
        </time>{' '}
        by {info.madeBy ?? 'meshdx (no sign-in)'} from{' '}
        <a
          className="font-mono text-blue-800 underline"
          href={info.url}
          data-testid="snapshot-from"
        >
          {readable(info.url)}
        </a>
        . It shows what that view showed then, after the pods and logs it names are gone; the link
        opens the view as it is now.
      </p>
      <p className="mt-1 text-xs">
        Its JSON, byte for byte:{' '}
        <a className="font-mono underline" href={info.api}>
          {info.api}
        </a>
      </p>
    </div>
  );
}

/** A URL as a person reads it (`12:00:00Z`, not `12%3A00%3A00Z`); the link keeps it encoded. */
function readable(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
