import type { ServerResponse } from 'node:http';
import type { Pod } from '../../../lib/kube/types';
import type { SimStoreImpl } from '../store/store';
import { KSM_CONTENT_TYPE, renderKsmMetrics } from './exposition';

/** GET /_sim/ksm/metrics: the store's pods as kube-state-metrics would expose them now. */
export function sendKsmMetrics(store: SimStoreImpl, res: ServerResponse): void {
  const body = renderKsmMetrics(store.list<Pod>('pods'));
  res.writeHead(200, {
    'Content-Type': KSM_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}
