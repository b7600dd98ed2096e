'use client';

import { useState } from 'react';
import type { IncidentsView } from './api';
import type { Finding } from '../../lib/findings/types';
import { INCIDENT_CATALOG } from '../../lib/incidents/codes';
import { Badge, Card } from '../ui/Card';
import { Evidence } from '../ui/Evidence';

const TITLES: ReadonlyMap<string, string> = new Map(
  Object.values(INCIDENT_CATALOG).map((c) => [c.code, c.title]),
);
const SEV = { error: 'bad', warning: 'warn', info: 'info' } as const;

function CopyButton({ text }: { text: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="no-print rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true));
      }}
    >
      {done ? 'copied' : 'copy'}
    </button>
  );
}

function FindingItem({ f }: { f: Finding }) {
  const subject = `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;
  return (
    <li
      className="border-t border-slate-100 py-3 first:border-t-0"
      data-testid={`finding-${f.code}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={SEV[f.severity]}>{f.code}</Badge>
        <span className="text-sm font-medium text-slate-800">{TITLES.get(f.code) ?? f.code}</span>
        <span className="font-mono text-xs text-slate-500">{subject}</span>
      </div>
      <div className="mt-1">
        <Evidence evidence={f.evidence} className="text-xs text-slate-600" />
      </div>
      {f.fix && <p className="mt-1 text-sm text-slate-700">{f.fix.why}</p>}
      {f.fix?.yaml && (
        <div className="mt-1">
          <div className="flex justify-end">
            <CopyButton text={f.fix.yaml} />
          </div>
          <pre
            tabIndex={0}
            className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
          >
            {f.fix.yaml}
          </pre>
        </div>
      )}
    </li>
  );
}

/** Per destination service: its outlier detection and retries now, then the findings with their YAML. */
export function Recommendations({ view }: { view: IncidentsView }) {
  return (
    <div className="space-y-4">
      <Card title="Destination services: resilience settings now" testId="incident-services">
        {view.services.length === 0 ? (
          <p className="text-sm text-slate-500">No failing requests to a known service.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="py-1">Service</th>
                <th>Failed</th>
                <th>Ready endpoints</th>
                <th>Dying at once</th>
                <th>Outlier detection</th>
                <th>Retries</th>
              </tr>
            </thead>
            <tbody>
              {view.services.map((s) => (
                <tr key={s.fqdn} className="border-t border-slate-100 align-top">
                  <td className="py-1 font-mono text-xs">{s.fqdn}</td>
                  <td>{s.count}</td>
                  <td>{s.replicas ?? '–'}</td>
                  <td>{s.concurrentTerminations}</td>
                  <td className="text-xs">
                    {s.outlier
                      ? `${s.outlier.source}: ${s.outlier.consecutive5xxErrors ?? 5} consecutive 5xx, eject ${s.outlier.baseEjectionTime ?? '30s'}, max ${s.outlier.maxEjectionPercent ?? 10}%`
                      : s.destinationRule
                        ? `${s.destinationRule}: none`
                        : 'none (no DestinationRule)'}
                  </td>
                  <td className="text-xs">
                    {s.retries.isDefault ? 'Istio default: ' : `${s.retries.source}: `}
                    {s.retries.attempts} × {s.retries.retryOn}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title={`Findings and fixes (${view.findings.length})`} testId="incident-findings">
        {view.findings.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing to fix from this evidence.</p>
        ) : (
          <ul>
            {view.findings.map((f, i) => (
              <FindingItem key={`${f.code}/${f.subject.name}/${i}`} f={f} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
