/**
 * `meshdx gather`: one cluster's evidence written as an `istioctl bug-report` archive (the layout
 * of lib/archive/layout.ts, so anything that reads istioctl's archive reads it), plus what only
 * meshdx keeps (lib/gather/extras.ts): the history store's pod IP intervals and recorded failing
 * requests of the window. Read-only, through the runtime's client code (server/kube, the same
 * port-forward and pods/log reads), within meshdx's request budget (server/kube/budget.ts), one
 * progress line per phase. Secrets are never read: `cluster/secrets` is not written, and each
 * config dump is kept without its SecretsConfigDump.
 */
import path from 'node:path';
import packageJson from '../../package.json';
import type { KubeEvent, KubeObject, Pod } from '../../lib/kube/types';
import { hasProxy, podProxy } from '../../lib/dataplane/proxy-container';
import { isZtunnelPod } from '../../lib/dataplane/mode';
import { eventsTable } from '../../lib/gather/events-table';
import {
  GATHER_FAILURES,
  GATHER_FORMAT_VERSION,
  GATHER_INTERVALS,
  GATHER_MANIFEST,
  gatherExtraLine,
  type GatherManifest,
  type GatherSkipped,
} from '../../lib/gather/extras';
import { clusterEntry, GATHERED_EVENTS_FILE, proxyEntry, topEntry } from '../../lib/archive/layout';
import {
  LIST_YAML_HEAD,
  LIST_YAML_NO_ITEMS,
  LIST_YAML_TAIL,
  listYamlItems,
} from '../../lib/gather/list-yaml';
import type { Gatherer, GatherRequest, GatherResult } from '../../lib/gather/request';
import { imageTag } from '../../lib/proxies/target';
import { istiodPods } from '../envoy/istiod';
import { failureReason } from '../envoy/reason';
import { loadEnv } from '../env';
import { contextSource, loadClusterConfig } from '../kube/source';
import { KubeTransport } from '../kube/transport';
import { storeFileFor } from '../runtime/runtime';
import { readWindowHistory } from './history';
import { captureIstiod, captureProxy, type CaptureContext, type PodCapture } from './proxies';
import {
  CLUSTER_RESOURCE_KINDS,
  istioCrKinds,
  K8S_RESOURCE_KINDS,
  streamPages,
  writeListYaml,
} from './resources';
import { ArchiveOut } from './tar-out';

const ISTIO_NAMESPACE = 'istio-system';
/** Pods read at once (each a few port-forwards; the budget caps them runtime-wide as well). */
const POD_CONCURRENCY = 4;
const PROXY_TIMEOUT_MS = 15_000;

async function eachLimited<T>(items: readonly T[], n: number, fn: (x: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/** Why a pod has no proxy to ask (a terminating pod's still does: it drains), or null. */
function noProxyRunning(p: Pod): string | null {
  if (!p.status?.podIP) return 'the pod has no IP';
  if (p.status.phase === 'Running') return null;
  // a native sidecar runs before the app containers: its pod is Pending while the app waits (on
  // the proxy, an image, a failing init step), the pod one most wants the proxy's files of
  const proxy = podProxy(p);
  if (p.status.phase === 'Pending' && proxy?.status?.state?.running) return null;
  return `the pod's phase is ${p.status.phase ?? 'unknown'}${proxy ? ` and its ${proxy.container.name} is not running` : ''}`;
}

/** The `versions` file: the API server's, istiod's and the proxies' versions. */
function versionsText(server: string, istiods: readonly Pod[], proxies: readonly string[]) {
  const lines = [`Kubernetes server version: ${server}`];
  const cp = istiods.map((p) => {
    const c = p.spec.containers.find((x) => x.name === 'discovery') ?? p.spec.containers[0];
    return `${p.metadata.name}: ${imageTag(c?.image) ?? 'unknown (no image tag)'}`;
  });
  lines.push(`control plane version: ${cp.length > 0 ? cp.join(', ') : 'no istiod pod found'}`);
  const counts = new Map<string, number>();
  for (const v of proxies) counts.set(v, (counts.get(v) ?? 0) + 1);
  const dp = [...counts].map(([v, n]) => `${v} (${n} proxies)`);
  lines.push(`data plane version: ${dp.length > 0 ? dp.join(', ') : 'no proxy answered'}`);
  return lines.join('\n') + '\n';
}

/** The capture (see the module comment); the archive is complete or not written at all. */
export const gatherArchive: Gatherer = async (req: GatherRequest): Promise<GatherResult> => {
  const log: string[] = [];
  const phase = (line: string) => {
    log.push(`${new Date().toISOString()} ${line}`);
    req.progress(line);
  };
  const cfg = loadClusterConfig({ kubeconfig: req.kubeconfig ?? undefined });
  if (!cfg)
    throw new Error(
      'no kubeconfig found (KUBECONFIG, ~/.kube/config) and not in a cluster: give one with --kubeconfig',
    );
  const source = contextSource(cfg, req.context);
  const t = new KubeTransport(source.kc);
  const skipped: GatherSkipped[] = [];
  const capture: PodCapture = { unreachable: [], skipped, versions: [], secretsDropped: 0 };
  let out: ArchiveOut | null = null;
  try {
    const version = await t.getJson<{ gitVersion?: string }>('/version');
    const toMs = t.clusterNow().getTime();
    const fromMs = toMs - req.sinceMs;
    phase(
      `cluster: ${source.context} at ${source.server} (${version.gitVersion ?? 'version unknown'}), window ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()}`,
    );
    // each entry dated by the cluster's clock as its newest answer gave it (whole seconds, as a
    // tar keeps them): the archive's capture time is then the cluster's, not one run on locally
    out = new ArchiveOut(req.out, () => t.clusterSaid());
    const archive = out;
    const ns = req.namespaces;
    await archive.add(clusterEntry('cluster-context'), `${source.context}\n${source.server}\n`);
    await archive.add(
      clusterEntry('kubectl-version'),
      `Server Version: ${version.gitVersion ?? 'unknown'}\n`,
    );

    const pods: Pod[] = [];
    const resources = await archive.addSpooled(clusterEntry('k8s-resources'), (put) =>
      writeListYaml(
        t,
        K8S_RESOURCE_KINDS,
        ns,
        put,
        'cluster/k8s-resources',
        skipped,
        (k, items) => {
          if (k.plural === 'pods') pods.push(...(items as Pod[]));
        },
      ),
    );
    const clusterWide = await archive.addSpooled(clusterEntry('k8s-cluster-resources'), (put) =>
      writeListYaml(t, CLUSTER_RESOURCE_KINDS, ns, put, 'cluster/k8s-cluster-resources', skipped),
    );
    await archive.addSpooled(clusterEntry('nodes'), (put) =>
      writeListYaml(
        t,
        CLUSTER_RESOURCE_KINDS.filter((k) => k.plural === 'nodes'),
        ns,
        put,
        'cluster/nodes',
        skipped,
      ),
    );
    const crKinds = await istioCrKinds(t);
    if (crKinds.problem) skipped.push({ part: 'cluster/crs', reason: crKinds.problem });
    const crs = await archive.addSpooled(clusterEntry('crs'), (put) =>
      writeListYaml(t, crKinds.kinds, ns, put, 'cluster/crs', skipped),
    );
    phase(`resources: ${resources} objects, ${clusterWide} cluster-scoped, ${crs} Istio resources`);

    const events: KubeEvent[] = [];
    for (const scope of ns ?? [undefined]) {
      try {
        await streamPages(
          t,
          { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' },
          scope,
          async (items: KubeObject[]) => {
            events.push(...(items as KubeEvent[]));
          },
        );
      } catch (e) {
        skipped.push({
          part: `cluster/events${scope ? ` (${scope})` : ''}`,
          reason: failureReason(e),
        });
      }
    }
    const table = eventsTable(events, toMs);
    if (table === '')
      skipped.push({
        part: 'cluster/events',
        reason: 'the cluster listed no events: istioctl writes no file for an empty answer',
      });
    else await archive.add(clusterEntry('events'), table);
    // and the events themselves, whose times the table rounds to ages
    await archive.add(
      topEntry(GATHERED_EVENTS_FILE),
      LIST_YAML_HEAD +
        (events.length > 0 ? listYamlItems(events, 'v1', 'Event') : LIST_YAML_NO_ITEMS) +
        LIST_YAML_TAIL,
    );
    skipped.push({
      part: 'cluster/secrets',
      reason: 'meshdx never reads Secrets, not even their names: the file is not written',
    });
    // the Istio namespace's pods, as istioctl's `cluster/pods` holds them (already listed)
    const systemPods = pods.filter((p) => p.metadata.namespace === ISTIO_NAMESPACE);
    await archive.add(
      clusterEntry('pods'),
      systemPods.length > 0
        ? LIST_YAML_HEAD + listYamlItems(systemPods, 'v1', 'Pod') + LIST_YAML_TAIL
        : LIST_YAML_HEAD + LIST_YAML_NO_ITEMS + LIST_YAML_TAIL,
    );
    phase(`events: ${events.length} events`);

    const ctx: CaptureContext = {
      t,
      kc: source.kc,
      out: archive,
      sinceTime: new Date(fromMs).toISOString(),
      timeoutMs: PROXY_TIMEOUT_MS,
      capture,
    };
    const envoys: Pod[] = [];
    const ztunnels: Pod[] = [];
    for (const p of pods) {
      const ztunnel = isZtunnelPod(p, ISTIO_NAMESPACE);
      if (!ztunnel && !hasProxy(p)) continue;
      const notRunning = noProxyRunning(p);
      if (notRunning) {
        skipped.push({
          part: proxyEntry(p.metadata.namespace ?? '', p.metadata.name, ''),
          reason: `not asked: ${notRunning}`,
        });
        continue;
      }
      (ztunnel ? ztunnels : envoys).push(p);
    }
    await eachLimited(envoys, POD_CONCURRENCY, (p) => captureProxy(ctx, p, 'envoy'));
    await eachLimited(ztunnels, POD_CONCURRENCY, (p) => captureProxy(ctx, p, 'ztunnel'));
    if (capture.secretsDropped > 0)
      skipped.push({
        part: proxyEntry('*', '*', 'config_dump?include_eds'),
        reason: `the SecretsConfigDump section (certificates and keys) is left out of ${capture.secretsDropped} config dumps`,
      });
    phase(
      `proxies: ${envoys.length} Envoy and ${ztunnels.length} ztunnel pods asked, ${capture.unreachable.length} unreachable`,
    );

    const istiods = istiodPods(pods, ISTIO_NAMESPACE);
    if (istiods.length === 0)
      skipped.push({
        part: `istio/${ISTIO_NAMESPACE}`,
        reason:
          ns && !ns.includes(ISTIO_NAMESPACE)
            ? `${ISTIO_NAMESPACE} is not among the namespaces asked for (--namespace)`
            : `no running istiod pod (label app=istiod) in ${ISTIO_NAMESPACE}`,
      });
    await eachLimited(istiods, POD_CONCURRENCY, (p) => captureIstiod(ctx, p));
    phase(`istiod: ${istiods.length} replicas`);

    const env = loadEnv(process.env);
    const storeFile =
      req.history ??
      storeFileFor(env.MESHDX_DB, source.context, source.context === cfg.defaultContext);
    const history = readWindowHistory(path.resolve(storeFile), { fromMs, toMs }, ns);
    if (history.problem) skipped.push({ part: 'meshdx history', reason: history.problem });
    await archive.addSpooled(GATHER_INTERVALS, async (put) => {
      for (const i of history.intervals) await put(gatherExtraLine(i));
    });
    await archive.addSpooled(GATHER_FAILURES, async (put) => {
      for (const f of history.failures) await put(gatherExtraLine(f));
    });
    phase(
      `history: ${history.intervals.length} pod intervals and ${history.failures.length} recorded failures of the window${history.problem ? ` (${history.problem})` : ''}`,
    );

    await archive.add(
      topEntry('versions'),
      versionsText(version.gitVersion ?? 'unknown', istiods, capture.versions),
    );
    const capturedAt = t.clusterSaid();
    const budget = t.budgetStats();
    const manifest: GatherManifest = {
      format: 'meshdx-gather',
      version: GATHER_FORMAT_VERSION,
      meshdxVersion: packageJson.version,
      capturedAt: capturedAt.toISOString(),
      window: {
        from: new Date(fromMs).toISOString(),
        to: new Date(toMs).toISOString(),
        since: req.sinceText,
      },
      context: source.context,
      server: source.server,
      namespaces: ns,
      history: { file: history.file, problem: history.problem },
      counts: { podIntervals: history.intervals.length, failures: history.failures.length },
      proxies: [
        ...envoys.map((p) => ({
          namespace: p.metadata.namespace ?? '',
          pod: p.metadata.name,
          kind: 'envoy',
        })),
        ...ztunnels.map((p) => ({
          namespace: p.metadata.namespace ?? '',
          pod: p.metadata.name,
          kind: 'ztunnel',
        })),
      ],
      istiods: istiods.map((p) => ({
        namespace: p.metadata.namespace ?? '',
        pod: p.metadata.name,
      })),
      unreachable: capture.unreachable,
      skipped,
      requests: { ...budget.requests },
      budget: {
        qps: budget.qps,
        burst: budget.burst,
        proxyConcurrency: budget.proxyConcurrency,
        peakQps: budget.peakQps,
        peakInFlightProxy: budget.peakInFlightProxy,
        throttledWaits: budget.throttledWaits,
        retries: budget.retries,
      },
    };
    await archive.add(GATHER_MANIFEST, JSON.stringify(manifest, null, 2) + '\n');
    phase(`archive: ${req.out}`);
    await archive.add(topEntry('bug-report.log'), log.join('\n') + '\n');
    const bytes = await archive.finish();
    return { manifest, entries: archive.entries, bytes };
  } catch (e) {
    out?.abort();
    throw e;
  } finally {
    t.close();
  }
};
