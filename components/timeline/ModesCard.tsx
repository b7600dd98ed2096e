'use client';

import type { InjectionInfo, WorkloadMode } from './api';
import { Badge, Card } from '../ui/Card';
import { CopyButton } from './CopyButton';
import { workloadKey, workloadNameKey } from '../../lib/refs/workload-ref';

function NodeChips({ info }: { info: InjectionInfo }) {
  if (info.nodesError) return <span className="text-amber-700">{info.nodesError}</span>;
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="node-versions">
      {info.nodes.map((n) => (
        <Badge key={n.name} tone={n.minor !== null && n.minor >= 33 ? 'good' : 'warn'}>
          {n.name} {n.kubeletVersion ?? '?'}
        </Badge>
      ))}
    </span>
  );
}

function ModeBadge({ mode }: { mode: string }) {
  return (
    <Badge tone={mode === 'native' ? 'good' : mode === 'mixed' ? 'warn' : 'neutral'}>{mode}</Badge>
  );
}

/**
 * The sidecar mode each workload runs now and the one its next pod gets (the injector decides per
 * pod at creation), with the workloads whose next restart flips it first.
 */
export function ModesCard({
  info,
  modes,
  namespace,
  total,
}: {
  info: InjectionInfo | null;
  modes: readonly WorkloadMode[];
  namespace: string | undefined;
  /** Workloads of the namespace, when the server sent only some of them. */
  total?: number;
}) {
  if (!info) return null;
  const rows = modes.filter((m) => !namespace || m.namespace === namespace);
  const flips = rows.filter((m) => m.flips);
  const shown =
    flips.length > 0 ? [...flips, ...rows.filter((m) => !m.flips).slice(0, 8)] : rows.slice(0, 12);
  return (
    <Card title="Sidecar mode now and at the next restart" testId="modes-card">
      <div className="space-y-2 text-sm">
        <p data-testid="injection-summary">
          A pod created now gets a{' '}
          <Badge tone={info.nextNative ? 'good' : 'neutral'}>
            {info.nextNative ? 'native sidecar' : 'classic sidecar'}
          </Badge>{' '}
          <span className="text-slate-600">
            ({info.why}; ENABLE_NATIVE_SIDECARS: {info.setting}, {info.source})
          </span>
        </p>
        <p className="text-xs text-slate-600">
          Nodes: <NodeChips info={info} />
        </p>
        {info.notes.map((n) => (
          <p key={n} className="text-xs text-amber-700">
            {n}
          </p>
        ))}
        {flips.length > 0 ? (
          <p className="text-amber-800" data-testid="mode-flip-count">
            {flips.length === 1 ? '1 workload changes' : `${flips.length} workloads change`} sidecar
            mode at the next rollout, eviction or scale-up.
          </p>
        ) : (
          <p className="text-slate-600" data-testid="mode-flip-count">
            No workload changes sidecar mode at its next restart.
          </p>
        )}
        <table className="w-full text-sm" data-testid="modes-table">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="py-1.5">Workload</th>
              <th>Now</th>
              <th>Next pod</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => (
              <tr
                key={workloadKey(m)}
                className="border-t border-slate-100 align-top"
                data-mode-workload={workloadNameKey(m.namespace, m.name)}
                data-flips={m.flips ? 'true' : undefined}
              >
                <td className="py-1.5">
                  <span className="text-slate-500">{m.namespace}/</span>
                  {m.name}
                  {m.flips && (
                    <div className="mt-0.5">
                      <Badge tone="warn">{m.code} flips at next restart</Badge>
                    </div>
                  )}
                </td>
                <td>
                  <ModeBadge mode={m.now} />{' '}
                  <span className="text-xs text-slate-500">
                    {m.nativePods}n/{m.classicPods}c
                  </span>
                </td>
                <td>
                  <ModeBadge mode={m.next} />
                  {m.pinned !== null && (
                    <div className="text-xs text-slate-500">pinned: {m.pinned}</div>
                  )}
                </td>
                <td className="text-xs text-slate-600">
                  {m.why}
                  {m.fixes[0]?.yaml && (
                    <details className="mt-0.5">
                      <summary className="cursor-pointer text-sky-700">
                        pin today&apos;s mode
                      </summary>
                      <div className="relative">
                        <pre className="overflow-x-auto rounded bg-slate-50 p-2 font-mono text-[11px]">
                          {m.fixes[0].yaml}
                        </pre>
                        <CopyButton text={m.fixes[0].yaml} />
                      </div>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {(total ?? rows.length) > shown.length && (
          <p className="text-xs text-slate-500">
            {((total ?? rows.length) - shown.length).toLocaleString('en-US')} more workloads keep
            their mode.
          </p>
        )}
      </div>
    </Card>
  );
}
