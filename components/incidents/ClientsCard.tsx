'use client';

import type { IncidentsView } from './api';
import { tryParsePodRef } from '../../lib/refs/pod-ref';
import { PodLink } from '../inventory/PodLink';
import { Card } from '../ui/Card';

type Clients = IncidentsView['clients'];

const REASON: Record<Clients['chosen'][number]['reason'], string> = {
  asked: 'asked for',
  failures: 'failures in its metrics',
  'calls-churn': 'calls where pods were deleted',
  churn: 'deletions in its namespace',
  rest: 'no signal',
};

/** Whose logs were read and why, and whose were not, with a way to read them too. */
export function ClientsCard({
  clients,
  onAdd,
}: {
  clients: Clients;
  onAdd?: (pod: string) => void;
}) {
  return (
    <Card
      title={`Client proxies: ${clients.read} logs read${clients.fromStore ? `, ${clients.fromStore} already in the store` : ''}${clients.skipped.length ? `, ${clients.skipped.length} skipped` : ''}`}
      testId="incident-clients"
    >
      <p className="text-sm text-slate-700">
        Chosen by: {clients.source}. At most {clients.limit} logs are read per view; clients whose
        own numbers report failures come first, then those calling namespaces where pods were
        deleted, then those in such namespaces.
        {clients.note ? ` ${clients.note}` : ''}
      </p>
      <details className="mt-2" open={clients.chosen.length <= 8}>
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Chosen ({clients.chosen.length})
        </summary>
        <ul className="mt-1 grid gap-x-4 text-xs md:grid-cols-2" data-testid="clients-read">
          {clients.chosen.map((c) => (
            <li key={c.pod} className="truncate">
              <span className="font-mono">
                <ClientPod pod={c.pod} />
              </span>{' '}
              <span className="text-slate-600">
                ({REASON[c.reason]}: {c.why})
              </span>
            </li>
          ))}
        </ul>
      </details>
      {clients.skipped.length > 0 && (
        <details className="mt-2" open>
          <summary className="cursor-pointer text-sm font-medium text-amber-800">
            Not read ({clients.skipped.length})
          </summary>
          <ul
            className="mt-1 max-h-56 overflow-auto text-xs"
            data-testid="clients-skipped"
            tabIndex={0}
            aria-label="Client proxies not read, scrollable"
          >
            {clients.skipped.map((c) => (
              <li key={c.pod} className="flex items-center gap-2 border-t border-slate-100 py-0.5">
                <span className="font-mono">
                  <ClientPod pod={c.pod} />
                </span>
                <span className="flex-1 text-slate-600">{c.why}</span>
                {onAdd && (
                  <button
                    type="button"
                    className="rounded border border-slate-300 px-1.5 py-0.5 text-slate-700 hover:bg-slate-50"
                    onClick={() => onAdd(c.pod)}
                    aria-label={`Read the log of ${c.pod} too`}
                  >
                    Read too
                  </button>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}

/** A client proxy's pod, linked to its page when it is written as a pod reference. */
function ClientPod({ pod }: { pod: string }) {
  const ref = tryParsePodRef(pod);
  return ref ? <PodLink pod={ref}>{pod}</PodLink> : <>{pod}</>;
}
