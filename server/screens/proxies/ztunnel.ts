/**
 * ztunnels in the Proxies screen: each ztunnel pod's admin :15000 `/config_dump` over
 * port-forward (the way `istioctl ztunnel-config` reads it), its memory from metrics.k8s.io
 * when the cluster serves it, joined with the live pods for stale workloads.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ZtunnelDetail, ZtunnelRow } from '../../../lib/api/proxies';
import { isZtunnelPod } from '../../../lib/dataplane/mode';
import { RequestError } from '../../../lib/api/request-error';
import { requireName } from '../../../lib/kube/names';
import type { Pod } from '../../../lib/kube/types';
import { mapBounded } from '../../../lib/proxies/pool';
import {
  quantityBytes,
  ztunnelDetail,
  ztunnelRow,
  type ZtunnelRead,
} from '../../../lib/proxies/ztunnel';
import { check, MEMORY_BYTES } from '../../../lib/plausible/checks';
import { failureReason } from '../../envoy/reason';
import { isKubeError } from '../../kube/errors';
import { requireLivePod } from '../../kube/pods';
import { envoyAdminGet } from '../../kube/podports';
import { listPods } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { runtimeFor } from '../../runtime/registry';
import { NO_READER, readZtunnelConfig } from '../../../lib/ambient/ztunnel-reader';
import type { RequestScope } from '../../auth/identity';
import { podKey } from '../../../lib/refs/pod-ref';

/** A ztunnel dump holds every workload of the cluster: a few MB at scale. */
const MAX_DUMP_BYTES = 64 * 1024 * 1024;

export async function readZtunnel(
  kc: KubeConfig,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<ZtunnelRead> {
  let res;
  try {
    res = await envoyAdminGet(kc, namespace, name, '/config_dump', {
      timeoutMs,
      maxBytes: MAX_DUMP_BYTES,
    });
  } catch (e) {
    return { ok: false, problem: failureReason(e) };
  }
  if (res.status !== 200) return { ok: false, problem: `/config_dump answered ${res.status}` };
  let root: unknown;
  try {
    root = JSON.parse(res.body);
  } catch (e) {
    return { ok: false, problem: `/config_dump is not JSON: ${(e as Error).message}` };
  }
  if (!readZtunnelConfig) return { ok: false, problem: NO_READER };
  return { ok: true, read: readZtunnelConfig(root) };
}

interface PodMetrics {
  containers?: { name?: string; usage?: { memory?: string } }[];
}

/**
 * Working set of the pod (sum over containers) from metrics.k8s.io; null when not served, when a
 * container's is missing, or when it cannot be (checked at the door).
 */
export async function podMemory(
  t: KubeTransport,
  namespace: string,
  name: string,
): Promise<number | null> {
  try {
    const m = await t.getJson<PodMetrics>(
      `/apis/metrics.k8s.io/v1beta1/namespaces/${requireName('namespace', namespace)}/pods/${requireName('pod', name)}`,
      { timeoutMs: 5_000 },
    );
    const values = (m.containers ?? []).map((c) => quantityBytes(c.usage?.memory));
    // a container whose usage is missing makes the pod's sum unknown (never a partial sum
    // counting it as 0), and a sum that cannot be a pod's memory is unknown too
    if (values.length === 0 || values.some((v) => v === null)) return null;
    const sum = values.reduce<number>((n, v) => n + (v ?? 0), 0);
    const c = check('metrics.k8s.io memory', sum, MEMORY_BYTES);
    return c.ok ? c.value : null;
  } catch (e) {
    if (isKubeError(e)) return null;
    throw e;
  }
}

export interface ZtunnelScanDeps {
  transport: KubeTransport;
  kc: KubeConfig;
  timeoutMs: number;
  concurrency: number;
}

/** One row per ztunnel pod of `pods` (the live pods of the cluster). */
export async function scanZtunnels(
  deps: ZtunnelScanDeps,
  pods: readonly Pod[],
  istioNamespace: string,
): Promise<ZtunnelRow[]> {
  const ztunnels = pods.filter((p) => isZtunnelPod(p, istioNamespace));
  const rows = await mapBounded<Pod, ZtunnelRow | null>(
    ztunnels,
    Math.max(1, Math.min(deps.concurrency, 4)),
    async (p) => {
      const ns = p.metadata.namespace ?? istioNamespace;
      const [read, memory] = await Promise.all([
        readZtunnel(deps.kc, ns, p.metadata.name, Math.max(deps.timeoutMs, 10_000)),
        podMemory(deps.transport, ns, p.metadata.name),
      ]);
      return ztunnelRow(p, read, pods, memory);
    },
    { onThrow: () => null },
  );
  return rows.filter((r): r is ZtunnelRow => r !== null);
}

export async function getZtunnelDetail(
  scope: RequestScope,
  namespace: string,
  name: string,
): Promise<ZtunnelDetail> {
  const ns = requireName('namespace', namespace);
  const podName = requireName('pod', name);
  const rt = runtimeFor(scope);
  const pod = await requireLivePod(rt.transport, ns, podName);
  // a sidecar or application pod has no ztunnel workload table: say so, never a 200 with an error
  if (!isZtunnelPod(pod, rt.settings.MESHDX_ISTIO_NAMESPACE))
    throw new RequestError(
      404,
      'NOT_A_ZTUNNEL',
      `${podKey(ns, podName)} is not a ztunnel pod (app=ztunnel in ${rt.settings.MESHDX_ISTIO_NAMESPACE})`,
      'Open a ztunnel from the Proxies view, or the pod itself at /api/proxies/NAMESPACE/NAME.',
    );
  const [read, pods] = await Promise.all([
    readZtunnel(rt.kc, ns, podName, Math.max(10_000, rt.settings.MESHDX_PROXY_TIMEOUT_MS * 3)),
    listPods(rt.transport),
  ]);
  return ztunnelDetail(pod, read, pods.items, rt.transport.clusterNow());
}
