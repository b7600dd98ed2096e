/**
 * An `istioctl bug-report` archive assembled in istioctl's layout (tools/bug-report/pkg/archive:
 * `bug-report/cluster/...`, `proxies/<ns>/<pod>/...`, `istio/<ns>/<istiod>/debug/...`) from the
 * real files of ../shared/fixtures (see its PROVENANCE.md): the config dumps of istio's
 * istioctl testdata (bookinfo details-v1 at 1.10, a waypoint at 1.21, a ztunnel), the 1.6.3
 * ingress gateway's istio-proxy log with istio.io's access lines, injected pods of
 * istio's inject testdata and kube-dns with status, and the VirtualServices and DestinationRules
 * of pilot's testdata. The pods' namespaces and names are set to the proxies' own (their node
 * ids) and the proxies' pods get a running status with their node ids' IPs; the events table is
 * written as kubectl 1.30 prints `get events -A -o wide`. The sidecars have no stats/prometheus
 * (the stats fixture is Envoy's /stats text, not Prometheus text): that part is missing.
 */
import { archivePath } from '../../../lib/archive/layout';
import { parseAllDocuments, stringify } from 'yaml';
import { readFixture } from '../../../test-support/fixtures';
import type { TestEntry } from './pack';

export const CAPTURED_AT = new Date('2026-03-04T05:06:07Z');

/** The proxies the archive holds: namespace, pod, and the fixture dump each one's files come from. */
export const ARCHIVE_PROXIES = [
  {
    namespace: 'default',
    pod: 'details-v1-79f774bdb9-6hxw6',
    dump: 'istio-details-v1_sidecar_config_dump_camelCase.json',
    podFixture: 'injected_pod.yaml',
    ip: '10.244.0.12',
  },
  {
    namespace: 'default',
    pod: 'httpbin-istio-waypoint-58f646c5ff-dbfkz',
    dump: 'istioctl-proxyconfig_all_types_config_dump.json',
    podFixture: 'injected_native-sidecar.yaml',
    ip: '192.168.252.229',
  },
] as const;

export const GATEWAY = {
  namespace: 'istio-system',
  pod: 'istio-ingressgateway-6f9df9b8-mhl5v',
  ip: '10.36.1.5',
};
export const ZTUNNEL = { namespace: 'istio-system', pod: 'ztunnel-8xk2p' };

interface FixturePod {
  metadata: Record<string, unknown>;
  spec: {
    containers?: { name: string }[];
    initContainers?: { name: string; restartPolicy?: string }[];
  };
  status?: Record<string, unknown>;
}

/**
 * A fixture pod under the proxy's namespace and name; `ip` gives it the status of a pod running
 * since ten minutes before the capture (the inject testdata pods carry `status: {}`), with the
 * IP of the proxy's node id, as the API server would report it.
 */
function podNamed(fixture: string, namespace: string, name: string, ip?: string): FixturePod {
  const doc = parseAllDocuments(readFixture('pods', fixture))[0];
  const pod = (Array.isArray(doc) ? doc[0] : doc)?.toJS() as FixturePod;
  const named = { ...pod, metadata: { ...pod.metadata, namespace, name } };
  if (!ip) return named;
  const started = new Date(CAPTURED_AT.getTime() - 600_000).toISOString();
  const ready = (c: { name: string }) => ({
    name: c.name,
    ready: true,
    started: true,
    restartCount: 0,
    image: 'docker.io/istio/proxyv2:1.26.0',
    imageID: '',
    state: { running: { startedAt: started } },
  });
  return {
    ...named,
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      hostIP: '10.128.0.7',
      startTime: started,
      conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: started,
      })),
      initContainerStatuses: (pod.spec.initContainers ?? []).map(ready),
      containerStatuses: (pod.spec.containers ?? []).map(ready),
    },
  };
}

function docs(file: string): unknown[] {
  return parseAllDocuments(readFixture('istio_config', 'pilot_testdata_config', file))
    .map((d) => d.toJS() as unknown)
    .filter((d) => d !== null);
}

/** Aligns rows as tabwriter does (each column as wide as its widest cell, plus 3 spaces). */
export function alignTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd((widths[i] ?? 0) + 3)))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

export const EVENT_ROWS = [
  [
    'NAMESPACE',
    'LAST SEEN',
    'TYPE',
    'REASON',
    'OBJECT',
    'SUBOBJECT',
    'SOURCE',
    'MESSAGE',
    'FIRST SEEN',
    'COUNT',
    'NAME',
  ],
  [
    'default',
    '5m',
    'Normal',
    'Scheduled',
    'pod/details-v1-79f774bdb9-6hxw6',
    '',
    'default-scheduler',
    'Successfully assigned default/details-v1-79f774bdb9-6hxw6 to node-1',
    '5m',
    '1',
    'details-v1-79f774bdb9-6hxw6.17f0a1b2c3d4e5f6',
  ],
  [
    'default',
    '2m30s',
    'Warning',
    'Unhealthy',
    'pod/details-v1-79f774bdb9-6hxw6',
    'spec.containers{istio-proxy}',
    'kubelet, node-1',
    'Readiness probe failed: HTTP probe failed with statuscode: 503',
    '4m',
    '3',
    'details-v1-79f774bdb9-6hxw6.17f0a1b2c3d4e5f7',
  ],
  [
    'kube-system',
    '<unknown>',
    'Normal',
    'Pulled',
    'pod/kube-dns-548976df6c-d9kkv',
    'spec.containers{kubedns}',
    'kubelet',
    'Container image "k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.13" already present on machine',
    '1h',
    '1',
    'kube-dns-548976df6c-d9kkv.17f0a1b2c3d4e5f8',
  ],
];

/**
 * The gateway's istio-proxy log: the 1.6.3 ingress gateway's agent and Envoy lines, then the
 * access lines of istio.io's docs (several generations of the default TEXT format), as a
 * container log interleaves them.
 */
export const GATEWAY_LOG = `${readFixture('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log')}${readFixture('access_logs', 'istio-io-docs_text_multi-version.log')}`;

/** The entries of the archive, under `bug-report/` as istioctl writes them. */
export function bugReportEntries(opts: { root?: string; mtime?: Date } = {}): TestEntry[] {
  const root = opts.root ?? 'bug-report/';
  const mtime = opts.mtime ?? CAPTURED_AT;
  const pods = [
    ...ARCHIVE_PROXIES.map((p) => podNamed(p.podFixture, p.namespace, p.pod, p.ip)),
    podNamed('injected_pod.yaml', GATEWAY.namespace, GATEWAY.pod, GATEWAY.ip),
    podNamed('injected_hello-multiport-metrics.yaml', 'default', 'hello-no-files-7d9f8b6c5-abcde'),
    parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
      .map((d) => d.toJS() as unknown)
      .find((d) => d !== null),
  ];
  const crs = [...docs('virtual-service-all.yaml'), ...docs('destination-rule-all.yaml')];
  const e = (name: string, body: string | Buffer): TestEntry => ({
    name: root + name,
    body,
    mtime,
  });
  return [
    e(
      'versions',
      'The following Istio control plane revisions/versions were found in the cluster:\nRevision default:\n&version.MeshInfo{...}\n',
    ),
    e('bug-report.log', `${CAPTURED_AT.toISOString()}\tinfo\tDone with bug-report.\n`),
    e('cluster/cluster-context', 'kind-meshdx\nhttps://127.0.0.1:6443\n'),
    e(
      'cluster/k8s-resources',
      stringify({ apiVersion: 'v1', kind: 'List', items: pods, metadata: { resourceVersion: '' } }),
    ),
    e('cluster/crs', crs.map((d) => stringify(d)).join('---\n')),
    e('cluster/events', `${alignTable(EVENT_ROWS)}\n`),
    e(
      'analyze/allNamespaces',
      'Warning [IST0107] (Pod default/hello-no-files-7d9f8b6c5-abcde) Misplaced annotation: sidecar.istio.io/inject can only be applied to Namespace\nInfo [IST0102] (Namespace default) The namespace is not enabled for Istio injection.\n',
    ),
    ...ARCHIVE_PROXIES.flatMap((p) => [
      e(
        archivePath('proxies', p.namespace, p.pod, 'config_dump?include_eds'),
        readFixture('config_dump', p.dump),
      ),
    ]),
    e(archivePath('proxies', GATEWAY.namespace, GATEWAY.pod, 'istio-proxy.log'), GATEWAY_LOG),
    e(
      archivePath('proxies', ZTUNNEL.namespace, ZTUNNEL.pod, 'config_dump'),
      readFixture('config_dump', 'ztunnel_config_dump.json'),
    ),
  ];
}
