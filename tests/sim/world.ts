/**
 * A small world for the simulator's own tests, built from real fixture objects (an injected pod
 * with a native istio-proxy sidecar, a kube-dns pod with status, an ingress gateway's proxy log),
 * plus a fake mesh emulator that echoes what it was asked.
 */
import http from 'node:http';
import { expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Pod } from '../../lib/kube/types';
import type { MeshEmulator, MeshWorld } from '../../server/sim/mesh/types';
import type { Scenario } from '../../server/sim/world/types';
import { readFixture } from '../../test-support/fixtures';

export const START = new Date('2026-01-01T00:00:00Z');
export const PROXY_LOG = 'proxy_logs/istio-ingressgateway-1.6.3_istio-proxy_container.log';

/** The proxy log fixture as (time, line) pairs: untimed lines inherit the previous time. */
export function proxyLogLines(): { time: Date; line: string }[] {
  const out: { time: Date; line: string }[] = [];
  let last = new Date('2020-06-29T23:37:27Z');
  for (const line of readFixture(PROXY_LOG).replace(/\n$/, '').split('\n')) {
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)\s/.exec(line);
    if (m?.[1] !== undefined) last = new Date(m[1]);
    out.push({ time: last, line });
  }
  return out;
}

function running(pod: Pod, ip: string, node: string): Pod {
  return {
    ...pod,
    spec: { ...pod.spec, nodeName: node },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], startTime: '2025-12-31T23:00:00Z' },
  };
}

function webPod(name: string, version: string, ip: string | undefined): Pod {
  return {
    metadata: { name, namespace: 'shop', labels: { app: 'web', version } },
    spec: {
      nodeName: ip === undefined ? undefined : 'node-b',
      containers: [
        { name: 'web', ports: [{ name: 'http', containerPort: 8080 }] },
        { name: 'istio-proxy', ports: [{ name: 'http-envoy-prom', containerPort: 15090 }] },
      ],
    },
    status: ip === undefined ? { phase: 'Pending' } : { phase: 'Running', podIP: ip },
  };
}

/** The first YAML document of a fixture (some carry a trailing empty one). */
function firstDoc<T>(file: string): T {
  const docs = parseAllDocuments(readFixture(file));
  const first = Array.isArray(docs) ? docs[0] : undefined;
  if (first === undefined) throw new Error(`no YAML document in ${file}`);
  return first.toJS() as T;
}

export const HELLO = 'hellopod';
export const KUBE_DNS = 'kube-dns-548976df6c-d9kkv';

export const testScenario: Scenario = {
  name: 'sim-test',
  description: 'simulator self-test world',
  start({ store, logs, clock }) {
    for (const ns of ['shop', 'kube-system', 'istio-system']) {
      store.upsert('namespaces', { metadata: { name: ns }, status: { phase: 'Active' } });
    }
    const hello = firstDoc<Pod>('pods/injected_pod.yaml');
    hello.metadata.namespace = 'shop';
    hello.metadata.labels = { ...hello.metadata.labels, app: 'hello' };
    store.upsert('pods', running(hello, '10.0.0.5', 'node-a'));
    store.upsert('pods', firstDoc<Pod>('pods/kube-dns_pod_with_status.yaml'));
    store.upsert('pods', webPod('web-1', 'v1', '10.0.0.6'));
    store.upsert('pods', webPod('web-2', 'v2', undefined));
    store.upsert('services', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    store.upsert('sidecars', {
      metadata: { name: 'default', namespace: 'shop' },
      spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
    });
    store.upsert('destinationrules', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        host: 'web.shop.svc.cluster.local',
        subsets: [{ name: 'v1', labels: { version: 'v1' } }],
      },
    });
    store.upsert('configmaps', {
      metadata: { name: 'istio', namespace: 'istio-system' },
      data: { mesh: 'defaultConfig:\n  holdApplicationUntilProxyStarts: true\n' },
    });
    for (const l of proxyLogLines()) logs.append('shop', HELLO, 'istio-proxy', l.time, l.line);
    logs.append('shop', HELLO, 'hello', new Date('2025-12-31T23:59:00Z'), 'hello started');
    clock.schedule(new Date(START.getTime() + 60_000), () => {
      const w2 = store.get<Pod>('pods', 'shop', 'web-2');
      if (w2 !== undefined)
        store.upsert('pods', { ...w2, status: { phase: 'Running', podIP: '10.0.0.7' } });
    });
  },
};

/** Echoes the request as JSON; '/missing' is a 404, like an unknown admin path. */
export function fakeMesh(_world: MeshWorld): MeshEmulator {
  return {
    podHttp(pod, port, path, query) {
      if (path === '/missing')
        return { status: 404, contentType: 'text/plain', body: 'not found\n' };
      const body = JSON.stringify({ pod: pod.metadata.name, port, path, query: query.toString() });
      return { status: 200, contentType: 'application/json', body };
    },
  };
}

/** GET on a local port that forwards to a pod (a port-forward's listener). */
export function localGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * Asks Envoy admin's config_dump through a local port forwarded to `pod`'s 15000: the fake
 * mesh's echo says the request reached that pod and port unchanged.
 */
export async function expectConfigDumpThrough(port: number, pod: string): Promise<void> {
  const r = await localGet(port, '/config_dump?resource=dynamic_active_clusters');
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body)).toEqual({
    pod,
    port: 15000,
    path: '/config_dump',
    query: 'resource=dynamic_active_clusters',
  });
}
