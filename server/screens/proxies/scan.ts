import type { KubeConfig } from '@kubernetes/client-node';
import type { FleetProgress, FleetView } from '../../../lib/api/proxies';
import { buildFleet } from '../../../lib/proxies/fleet';
import { mapBounded } from '../../../lib/proxies/pool';
import { proxyTargets } from '../../../lib/proxies/target';
import type { ScrapeOutcome } from '../../../lib/proxies/types';
import { readSyncStatus, istiodPods } from '../../envoy/istiod';
import { failureReason } from '../../envoy/reason';
import type { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import { listIstioConfig, listPods } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { scanZtunnels } from './ztunnel';

export interface ScanDeps {
  transport: KubeTransport;
  kc: KubeConfig;
  istioNamespace: string;
  concurrency: number;
  timeoutMs: number;
  /** Where scraped Envoy init times are kept (the runtime's). */
  envoyInit?: EnvoyInitTimes;
}

/**
 * The fleet scan: list pods and Sidecars, then every running proxy's :15090 scrape with bounded
 * concurrency and a per-proxy timeout (a slow or dead proxy costs one slot for at most
 * timeoutMs), and istiod's sync state in parallel. Progress is reported after each proxy.
 */
export async function scanFleet(
  deps: ScanDeps,
  onProgress?: (p: FleetProgress) => void,
): Promise<FleetView> {
  const started = Date.now();
  const [pods, istio] = await Promise.all([
    listPods(deps.transport),
    listIstioConfig(deps.transport),
  ]);
  const { targets } = proxyTargets(pods.items, istio.sidecars, deps.istioNamespace);
  const syncPromise = readSyncStatus(
    deps.kc,
    istiodPods(pods.items, deps.istioNamespace),
    deps.timeoutMs,
  );
  const progress: FleetProgress = {
    type: 'progress',
    done: 0,
    total: targets.length,
    unreachable: 0,
  };
  onProgress?.({ ...progress });
  const outcomes = await mapBounded<(typeof targets)[number], ScrapeOutcome | null>(
    targets,
    deps.concurrency,
    async (t) =>
      t.notRunning === null
        ? scrapeProxyStats(deps.transport, t.namespace, t.name, deps.timeoutMs, deps.envoyInit)
        : null,
    {
      onThrow: (e) => ({ ok: false, reason: failureReason(e) }),
      onDone: (r) => {
        progress.done++;
        if (r && !r.ok) progress.unreachable++;
        onProgress?.({ ...progress });
      },
    },
  );
  const ztunnels = await scanZtunnels(deps, pods.items, deps.istioNamespace);
  const sync = await syncPromise;
  return buildFleet({
    targets,
    outcomes,
    sync,
    scannedAt: deps.transport.clusterNow(),
    durationMs: Date.now() - started,
    concurrency: deps.concurrency,
    timeoutMs: deps.timeoutMs,
    ztunnels,
  });
}
