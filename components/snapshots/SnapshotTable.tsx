import type { SnapshotList } from './api';
import { Card } from '../ui/Card';

const MIB = 1024 * 1024;

/** The snapshots kept, newest first, and what retention keeps. */
export function SnapshotTable({ list }: { list: SnapshotList }) {
  const r = list.retention;
  return (
    <Card title={`Snapshots (${r.count})`} testId="snapshot-list">
      <p className="mb-2 text-xs text-slate-600">
        Kept {r.maxAgeDays} days and at most {(r.maxBytes / MIB).toFixed(0)} MiB, oldest first;{' '}
        {(r.bytes / MIB).toFixed(2)} MiB now
        {r.oldest ? `, the oldest frozen ${r.oldest}` : ''}. {list.deleteRule}
      </p>
      {list.snapshots.length === 0 ? (
        <p className="text-sm text-slate-700">
          No snapshots yet: use Share on Incidents or Timelines.
        </p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-xs text-slate-600">
              <th className="py-1">Frozen</th>
              <th>View</th>
              <th>By</th>
              <th>From</th>
              <th className="text-right">Bytes</th>
            </tr>
          </thead>
          <tbody>
            {list.snapshots.map((s) => (
              <tr key={s.id} className="border-t border-slate-200">
                <td className="py-1">
                  <a className="text-blue-700 underline" href={s.link}>
                    {s.frozenAt}
                  </a>
                </td>
                <td>{s.view}</td>
                <td>{s.madeBy ?? '(no sign-in)'}</td>
                <td className="max-w-md truncate font-mono text-xs">{s.url}</td>
                <td className="text-right">{s.bytes.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
