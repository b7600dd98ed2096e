'use client';

import { useState, useSyncExternalStore } from 'react';
import { requestSnapshot, type SnapshotInfo, type SnapshotView } from './api';
import { useClusterContext } from '../data/useClusterContext';

type State =
  | { kind: 'idle' }
  | { kind: 'freezing' }
  | { kind: 'done'; info: SnapshotInfo; copied: boolean }
  | { kind: 'failed'; message: string };

/** The page's query without `?context=` (the snapshot is asked for on that context). */
function viewQuery(): string {
  const sp = new URLSearchParams(window.location.search);
  sp.delete('context');
  const q = sp.toString();
  return q ? `?${q}` : '';
}

const noSubscription = () => () => {};

/**
 * Share: freezes what the view shows now (its API JSON, computed by the server for this page's
 * filters and window) and gives the /snapshots/ID link that reopens exactly that, read-only.
 */
export function ShareButton({ view }: { view: SnapshotView }) {
  const ctx = useClusterContext();
  const [state, setState] = useState<State>({ kind: 'idle' });
  // false in the server's HTML and until React has hydrated the page: a click before that would
  // be lost (the button has no handler yet), so the button says it is not ready instead
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const share = async () => {
    setState({ kind: 'freezing' });
    try {
      const answer = await requestSnapshot(ctx, view, viewQuery());
      if (!answer.ok) {
        setState({ kind: 'failed', message: answer.message });
        return;
      }
      const data = answer.info;
      const link = `${window.location.origin}${data.link}`;
      const copied = await navigator.clipboard.writeText(link).then(
        () => true,
        () => false,
      );
      setState({ kind: 'done', info: data, copied });
    } catch (e) {
      setState({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <div className="no-print flex flex-wrap items-center gap-2 text-xs" data-testid="share">
      <button
        type="button"
        className="rounded border border-slate-300 bg-white px-2 py-1 text-slate-800 hover:bg-slate-50 disabled:opacity-60"
        disabled={!hydrated || state.kind === 'freezing'}
        onClick={() => void share()}
        data-testid="share-button"
        title="Freeze what this view shows into a link that reopens it after the pods and logs are gone"
      >
        {state.kind === 'freezing' ? 'Freezing…' : 'Share'}
      </button>
      {state.kind === 'done' && (
        <span data-testid="share-link">
          Frozen{state.copied ? ' (link copied)' : ''}:{' '}
          <a className="font-mono text-blue-700 underline" href={state.info.link}>
            {state.info.link}
          </a>
        </span>
      )}
      {state.kind === 'failed' && (
        <span className="text-red-700" role="alert" data-testid="share-error">
          Could not freeze this view: {state.message}
        </span>
      )}
    </div>
  );
}
