'use client';

import type { IncidentsView } from './api';
import { fmtDuration } from '../../lib/incidents/format';
import { Card } from '../ui/Card';
import { PodLink } from '../inventory/PodLink';
import { tryParsePodRef } from '../../lib/refs/pod-ref';

const MAX_ROWS = 50;

const LAYER_LABEL: Record<string, string> = {
  endpointslice: 'EndpointSlice',
  istiod: "istiod's push",
  envoy: "client's Envoy",
  ztunnel: "client's ztunnel",
};

/** The columns: the client's own layer is its Envoy, or in ambient its node's ztunnel. */
const COLUMNS = ['EndpointSlice', "istiod's push", "client's Envoy or ztunnel"];

function podText(key: string) {
  const ref = tryParsePodRef(key);
  return ref ? <PodLink pod={ref}>{ref.name}</PodLink> : key;
}

/**
 * For each failing IP and client proxy, the layer that still held the deleted pod's IP: the
 * EndpointSlice, istiod's push, or the client's Envoy (in ambient its ztunnel), each with the delay it added and the
 * failures that fell in it, and the sentence to paste into the incident.
 */
export function LayersCard({ view }: { view: IncidentsView }) {
  const { timelines, note } = view.layers;
  return (
    <Card title="Which layer held each deleted pod's IP" testId="incident-layers">
      {note && <p className="mb-2 text-xs text-slate-600">{note}</p>}
      {timelines.length === 0 ? (
        <p className="text-sm text-slate-600">
          No failing request to a pod whose deletion had started in this window.
        </p>
      ) : (
        <table className="w-full text-left text-xs">
          <thead>
            <tr className="text-slate-600">
              <th className="py-1 pr-2">pod (IP)</th>
              <th className="py-1 pr-2">client</th>
              <th className="py-1 pr-2">held by</th>
              {COLUMNS.map((c) => (
                <th key={c} className="py-1 pr-2">
                  {c}
                </th>
              ))}
              <th className="py-1">what to paste</th>
            </tr>
          </thead>
          <tbody>
            {timelines.slice(0, MAX_ROWS).map((t) => (
              <tr
                key={`${t.ip} ${t.client} ${t.pod}`}
                className="border-t align-top"
                data-testid="layer-row"
              >
                <td className="py-1 pr-2">
                  {podText(t.pod)} ({t.ip})
                </td>
                <td className="py-1 pr-2">{podText(t.client)}</td>
                <td className="py-1 pr-2 font-medium">
                  {t.held ? `${LAYER_LABEL[t.held]} ${fmtDuration(t.heldMs ?? 0)}` : 'unknown'}
                </td>
                {t.steps.map((s) => (
                  <td key={s.layer} className="py-1 pr-2" title={s.unknown ?? s.note ?? undefined}>
                    {s.layer === 'ztunnel' ? 'ztunnel ' : ''}
                    {s.delayMs !== null ? `+${fmtDuration(s.delayMs)}` : 'unknown'}
                    {s.failures > 0 ? ` · ${s.failures} failed` : ''}
                  </td>
                ))}
                <td className="py-1 select-all" data-testid="layer-sentence">
                  {t.sentence}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {timelines.length > MAX_ROWS && (
        <p className="mt-1 text-xs text-slate-600">
          {timelines.length - MAX_ROWS} more not listed (the longest held first).
        </p>
      )}
    </Card>
  );
}
