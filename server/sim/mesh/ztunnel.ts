/**
 * The simulated ztunnel (ambient's node proxy) behind port-forward: its admin :15000 serves
 * `/config_dump` in ztunnel's own shape (not an Envoy dump; see
 * ../shared/fixtures/config_dump/ztunnel_config_dump.json): `workloads` keyed `NETWORK/IP`,
 * `services` keyed `NAMESPACE/HOSTNAME`, `policies`, `certificates`, `workloadState`. Like a real
 * ztunnel it holds every workload of the cluster (WDS is not node-scoped): ambient pods with
 * protocol HBONE, the others TCP.
 *
 * Scenario hook: `sim.meshdx.io/ztunnel-stale` on a ztunnel pod, a JSON list of
 * `{name, namespace, ip, node}`: workloads this ztunnel still holds after their pods are gone
 * (a ztunnel whose xDS stream lags: the stale-EDS story of ambient).
 *
 * With the layer-delay model on (istio-model/xds-push.ts), a ztunnel's table follows the last
 * push it applied, `ztunnelMs` after istiod sent it: a pod that push had ready is Healthy, gone
 * or not; one it had not ready is Unhealthy; one it no longer listed is gone.
 */
import { isZtunnelPod, waypointFor, ztunnelCaptures } from './istio-model/capture';
import type { Namespace, Pod, Service } from '../../../lib/kube/types';
import type { MeshWorld, PodHttpResponse } from './types';
import type { XdsPush } from './istio-model/xds-push';
import { scopedHost } from '../../../lib/refs/object-ref';
import { podKey, podWorkloadUid } from '../../../lib/refs/pod-ref';

export const ZTUNNEL_STALE_ANNOTATION = 'sim.meshdx.io/ztunnel-stale';

export interface StaleZtunnelWorkload {
  name: string;
  namespace: string;
  ip: string;
  node: string;
}

export { isZtunnelPod };

function staleOf(pod: Pod): StaleZtunnelWorkload[] {
  const raw = pod.metadata.annotations?.[ZTUNNEL_STALE_ANNOTATION];
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v)
      ? v.filter(
          (x): x is StaleZtunnelWorkload =>
            typeof x === 'object' && x !== null && typeof (x as { ip?: unknown }).ip === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function workloadName(pod: Pod): string {
  const owner = pod.metadata.ownerReferences?.[0]?.name ?? pod.metadata.name;
  const hash = pod.metadata.labels?.['pod-template-hash'];
  return hash && owner.endsWith(`-${hash}`) ? owner.slice(0, -(hash.length + 1)) : owner;
}

interface Entry {
  workloadIps: string[];
  waypoint?: { destination: string; port: number };
  protocol: string;
  uid: string;
  name: string;
  namespace: string;
  trustDomain: string;
  serviceAccount: string;
  workloadName: string;
  workloadType: string;
  canonicalName: string;
  canonicalRevision: string;
  node: string;
  status: string;
  clusterId: string;
}

function entry(
  name: string,
  namespace: string,
  ip: string,
  node: string,
  wl: string,
  sa: string,
  protocol: string,
  waypointVip: string | null,
): Entry {
  return {
    workloadIps: [ip],
    ...(waypointVip ? { waypoint: { destination: `/${waypointVip}`, port: 15008 } } : {}),
    protocol,
    uid: podWorkloadUid({ namespace, name }),
    name,
    namespace,
    trustDomain: 'cluster.local',
    serviceAccount: sa,
    workloadName: wl,
    workloadType: 'deployment',
    canonicalName: wl,
    canonicalRevision: 'latest',
    node,
    status: 'Healthy',
    clusterId: 'Kubernetes',
  };
}

/** The workload table as the ztunnel's last applied push left it (see the module comment). */
function followPush(
  workloads: Record<string, Entry>,
  applied: XdsPush | undefined,
  pods: readonly Pod[],
): void {
  if (applied === undefined) return;
  const live = new Set(pods.map((p) => podKey(p.metadata.namespace ?? 'default', p.metadata.name)));
  const held = new Map<string, { ready: boolean; name: string; namespace: string; node: string }>();
  for (const eps of applied.shards.values())
    for (const e of eps) {
      if (e.pod === undefined) continue;
      const was = held.get(e.address);
      held.set(e.address, {
        ready: (was?.ready ?? true) && e.ready,
        name: e.pod.name,
        namespace: e.pod.namespace,
        node: e.nodeName ?? '',
      });
    }
  for (const w of Object.values(workloads)) {
    const ip = w.workloadIps[0] ?? '';
    const h = held.get(ip);
    // a pod no Service selects, or one just started: as the pods have it
    if (h === undefined || h.name !== w.name) continue;
    w.status = h.ready ? 'Healthy' : 'Unhealthy';
  }
  for (const [ip, h] of held) {
    if (workloads[`/${ip}`] !== undefined || live.has(podKey(h.namespace, h.name))) continue;
    const wl = h.name.split('-').slice(0, -2).join('-') || h.name;
    workloads[`/${ip}`] = {
      ...entry(h.name, h.namespace, ip, h.node, wl, 'default', 'HBONE', null),
      status: h.ready ? 'Healthy' : 'Unhealthy',
    };
  }
}

export function ztunnelConfigDump(ztunnel: Pod, world: MeshWorld): unknown {
  const pods = world.list('pods') as readonly Pod[];
  const namespaces = new Map(
    (world.list('namespaces') as readonly Namespace[]).map((n) => [n.metadata.name, n]),
  );
  const services = world.list('services') as readonly Service[];
  const vipOf = (ref: string | null): string | null => {
    if (!ref) return null;
    const [ns, name] = ref.split('/');
    return (
      services.find((s) => s.metadata.namespace === ns && s.metadata.name === name)?.spec
        .clusterIP ?? null
    );
  };
  const workloads: Record<string, Entry> = {};
  for (const p of pods) {
    const ip = p.status?.podIP;
    if (!ip || !p.spec || p.spec.hostNetwork || isZtunnelPod(p)) continue;
    const ns = namespaces.get(p.metadata.namespace ?? '');
    const captured = ztunnelCaptures(p, ns);
    workloads[`/${ip}`] = entry(
      p.metadata.name,
      p.metadata.namespace ?? 'default',
      ip,
      p.spec.nodeName ?? '',
      workloadName(p),
      p.spec.serviceAccountName ?? 'default',
      captured ? 'HBONE' : 'TCP',
      captured ? vipOf(waypointFor(p, ns, p.metadata.namespace ?? '')) : null,
    );
  }
  for (const s of staleOf(ztunnel)) {
    workloads[`/${s.ip}`] ??= entry(
      s.name,
      s.namespace,
      s.ip,
      s.node,
      s.name.split('-').slice(0, -2).join('-') || s.name,
      'default',
      'HBONE',
      null,
    );
  }
  const model = world.xds?.();
  if (model !== undefined)
    followPush(workloads, model.ztunnelApplied(ztunnel, world.now().getTime()), pods);
  const svc: Record<string, unknown> = {};
  for (const s of services) {
    const ns = s.metadata.namespace ?? 'default';
    const hostname = `${s.metadata.name}.${ns}.svc.cluster.local`;
    const sel = s.spec.selector ?? {};
    const backs = pods.filter(
      (p) =>
        p.metadata.namespace === ns &&
        p.status?.podIP &&
        Object.keys(sel).length > 0 &&
        Object.entries(sel).every(([k, v]) => p.metadata.labels?.[k] === v),
    );
    const wp = waypointFor(s, namespaces.get(ns), ns);
    svc[scopedHost(ns, hostname)] = {
      name: s.metadata.name,
      namespace: ns,
      hostname,
      vips: s.spec.clusterIP ? [`/${s.spec.clusterIP}`] : [],
      ports: Object.fromEntries(
        (s.spec.ports ?? []).map((p) => [String(p.port), Number(p.targetPort ?? p.port)]),
      ),
      endpoints: Object.fromEntries(
        backs.map((p) => [
          `${podWorkloadUid({ namespace: ns, name: p.metadata.name })}:/${p.status?.podIP ?? ''}`,
          {
            workloadUid: podWorkloadUid({ namespace: ns, name: p.metadata.name }),
            service: '',
            port: {},
          },
        ]),
      ),
      ...(wp ? { waypoint: { destination: `/${vipOf(wp) ?? ''}`, port: 15008 } } : {}),
      ipFamilies: 'IPv4',
    };
  }
  return {
    workloads,
    services: svc,
    policies: [],
    certificates: [],
    workloadState: {},
  };
}

/** A ztunnel pod's ports: admin 15000 (`/config_dump`), readiness 15021; nothing else. */
export function ztunnelHttp(
  pod: Pod,
  port: number,
  path: string,
  world: MeshWorld,
): PodHttpResponse {
  if (port === 15000 && path === '/config_dump') {
    return {
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(ztunnelConfigDump(pod, world), null, 2) + '\n',
    };
  }
  if (port === 15021 && path === '/healthz/ready') {
    return { status: 200, contentType: 'text/plain; charset=UTF-8', body: '' };
  }
  if (port === 15000) {
    return { status: 404, contentType: 'text/plain; charset=UTF-8', body: 'Not Found\n' };
  }
  const ip = pod.status?.podIP ?? '<none>';
  return {
    status: 502,
    contentType: 'text/plain; charset=UTF-8',
    body: `error trying to reach service: dial tcp ${ip}:${port}: connect: connection refused\n`,
  };
}
