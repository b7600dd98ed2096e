import type { IncidentsView } from './api';

/**
 * The one sentence that says what the window holds and from where (computed once on the
 * server): every card of the incident shows it, so a card read alone still says it.
 */
export function MemoryNote({ memory }: { memory: IncidentsView['memory'] }) {
  if (!memory) return null;
  return (
    <p className="mt-2 text-xs text-slate-600" data-testid="memory-note">
      {memory.text}.
    </p>
  );
}

/** What the store keeps, which clients' logs were never read, and what this answer read. */
export function MemoryDetail({ memory }: { memory: NonNullable<IncidentsView['memory']> }) {
  return (
    <div className="mt-2 space-y-1 text-xs text-slate-600" data-testid="memory-detail">
      <p>
        This answer read {memory.readNow} client log{memory.readNow === 1 ? '' : 's'} past what the
        store already held; {memory.fromStoreOnly} client proxies were answered from the store
        alone.
      </p>
      {memory.byRead.deletion ? (
        <p data-testid="memory-deletion-reads">
          {memory.byRead.deletion} of them were read from a client proxy&apos;s log as its
          pod&apos;s deletion started, before the container went.
        </p>
      ) : null}
      <p data-testid="memory-retention">
        The whole store (every namespace and time, not only this window): {memory.retention}.
      </p>
      {memory.goneUnread.length > 0 && (
        <p className="text-amber-800" data-testid="memory-gone-unread">
          Gone before meshdx read their logs: {memory.goneUnread.slice(0, 20).join(', ')}
          {memory.goneUnread.length > 20 ? `, … (${memory.goneUnread.length - 20} more)` : ''}.
        </p>
      )}
    </div>
  );
}
