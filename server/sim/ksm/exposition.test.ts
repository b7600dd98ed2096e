import { describe, it, expect, afterAll } from 'vitest';
import { parse } from 'yaml';
import type { Pod } from '../../../lib/kube/types';
import { readFixture } from '../../../test-support/fixtures';
import { startSimulator, type RunningSimulator } from '../index';
import { escapeLabelValue, KSM_PHASES, renderKsmMetrics } from './exposition';

/** A small independent reader of the text format: name, labels and value of each sample. */
function samples(text: string) {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m) throw new Error(`bad line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] ?? ''] = (l[2] ?? '').replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    out.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return out;
}

const kubeDns = parse(readFixture('pods', 'kube-dns_pod_with_status.yaml')) as Pod;

describe('kube-state-metrics exposition', () => {
  it('renders a real Pod with the kube-state-metrics v2 labels', () => {
    const text = renderKsmMetrics([kubeDns]);
    const s = samples(text);
    const info = s.filter((x) => x.name === 'kube_pod_info');
    expect(info).toHaveLength(1);
    expect(info[0]?.labels).toEqual({
      namespace: 'kube-system',
      pod: 'kube-dns-548976df6c-d9kkv',
      uid: 'dd4bbbd4-f71c-11e8-af4f-42010a800072',
      host_ip: '10.128.0.5',
      pod_ip: '10.40.1.4',
      node: 'gke-istio-test-default-pool-866a0405-ftch',
      created_by_kind: 'ReplicaSet',
      created_by_name: 'kube-dns-548976df6c',
      priority_class: 'system-cluster-critical',
      host_network: 'false',
    });
    expect(info[0]?.value).toBe(1);
    const created = s.find((x) => x.name === 'kube_pod_created');
    expect(created?.value).toBe(Date.parse('2018-12-03T16:59:57Z') / 1000);
    expect(Object.keys(created?.labels ?? {})).toEqual(['namespace', 'pod', 'uid']);
    expect(s.filter((x) => x.name === 'kube_pod_deletion_timestamp')).toHaveLength(0);
    const phases = s.filter((x) => x.name === 'kube_pod_status_phase');
    expect(phases.map((p) => p.labels.phase)).toEqual([...KSM_PHASES]);
    expect(phases.filter((p) => p.value === 1).map((p) => p.labels.phase)).toEqual(['Running']);
    for (const name of [
      'kube_pod_info',
      'kube_pod_created',
      'kube_pod_deletion_timestamp',
      'kube_pod_status_phase',
    ]) {
      expect(text).toContain(`# TYPE ${name} gauge\n`);
      expect(text).toMatch(new RegExp(`# HELP ${name} \\S`));
    }
  });

  it('handles deleting, pending, ownerless, hostNetwork pods and hostile label values', () => {
    const deleting: Pod = {
      metadata: {
        ...kubeDns.metadata,
        name: 'x"y\\z\nw',
        uid: 'u-del',
        deletionTimestamp: '2026-10-01T10:00:30Z',
      },
      spec: kubeDns.spec,
      status: kubeDns.status,
    };
    const pending: Pod = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [] },
      status: { phase: 'Pending' },
    };
    const hostNet: Pod = {
      metadata: { name: 'h', namespace: 'ns', uid: 'u-h', creationTimestamp: 'not a time' },
      spec: { containers: [], nodeName: 'n1', ...{ hostNetwork: true } },
    };
    const s = samples(renderKsmMetrics([deleting, pending, hostNet]));
    const info = s.filter((x) => x.name === 'kube_pod_info');
    expect(info.map((i) => i.labels.pod)).toEqual(['x"y\\z\nw', 'p', 'h']);
    expect(info[1]?.labels).toMatchObject({
      pod_ip: '',
      uid: '',
      created_by_kind: '<none>',
      created_by_name: '<none>',
      priority_class: '',
    });
    expect(info[2]?.labels.host_network).toBe('true');
    const del = s.filter((x) => x.name === 'kube_pod_deletion_timestamp');
    expect(del).toEqual([
      {
        name: 'kube_pod_deletion_timestamp',
        labels: { namespace: 'kube-system', pod: 'x"y\\z\nw', uid: 'u-del' },
        value: Date.parse('2026-10-01T10:00:30Z') / 1000,
      },
    ]);
    // unparsable creation time: no sample rather than NaN; no status: no phase series
    expect(s.filter((x) => x.name === 'kube_pod_created')).toHaveLength(1);
    expect(s.filter((x) => x.name === 'kube_pod_status_phase')).toHaveLength(10);
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });
});

describe('GET /_sim/ksm/metrics', () => {
  let sim: RunningSimulator | undefined;
  afterAll(async () => sim?.close());

  it('serves every pod in the store, at scrape time', async () => {
    sim = await startSimulator({
      scenario: 'phantom-503',
      clock: { fixed: new Date('2026-10-01T10:00:00Z') },
    });
    const res = await fetch(`${sim.url}/_sim/ksm/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const pods = sim.store.list<Pod>('pods');
    const info = samples(await res.text()).filter((x) => x.name === 'kube_pod_info');
    expect(pods.length).toBeGreaterThan(5);
    expect(info.map((i) => i.labels.uid).sort()).toEqual(pods.map((p) => p.metadata.uid).sort());
    expect(info.filter((i) => i.labels.namespace === 'shop')).toHaveLength(11);
  });
});
