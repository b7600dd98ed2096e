import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { KubeEvent } from '../kube/types';
import { configDumpWithoutSecrets } from './config-dump';
import { humanDuration } from '../kube/kubectl-events';
import { eventsTable } from './events-table';
import { joinedProxyLog, PREVIOUS_LOG, PREVIOUS_LOG_PRESENT, proxyEntry } from '../archive/layout';
import { parseSince } from './since';
import { LIST_YAML_HEAD, LIST_YAML_TAIL, listYamlItems } from './list-yaml';

const S = 1000;
const NOW = Date.parse('2026-11-01T12:00:00Z');

describe('humanDuration (apimachinery HumanDuration)', () => {
  it('writes each range as kubectl does', () => {
    const cases: [number, string][] = [
      [-5 * S, '<invalid>'],
      [-500, '0s'],
      [0, '0s'],
      [119 * S, '119s'],
      [182 * S, '3m2s'],
      [5 * 60 * S, '5m'],
      [59 * 60 * S, '59m'],
      [125 * 60 * S, '125m'],
      [(2 * 3600 + 5 * 60) * S * 2, '4h10m'],
      [5 * 3600 * S, '5h'],
      [47 * 3600 * S, '47h'],
      [(3 * 24 + 4) * 3600 * S, '3d4h'],
      [40 * 86400 * S, '40d'],
      [(2 * 365 + 10) * 86400 * S, '2y10d'],
      [9 * 365 * 86400 * S, '9y'],
    ];
    for (const [ms, text] of cases) expect(humanDuration(ms), String(ms)).toBe(text);
  });
});

function event(name: string, over: Partial<KubeEvent> & { created: string }): KubeEvent {
  return {
    metadata: { name, namespace: 'shop', creationTimestamp: over.created },
    involvedObject: {
      kind: 'Pod',
      name: 'cart-7d9f-abcde',
      fieldPath: 'spec.containers{istio-proxy}',
    },
    type: 'Warning',
    reason: 'Unhealthy',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    count: 3,
    source: { component: 'kubelet', host: 'node-1' },
    ...over,
  };
}

describe('eventsTable (kubectl get events -A -o wide)', () => {
  it("prints kubectl's wide columns, oldest created first, ages from the capture", () => {
    const text = eventsTable(
      [
        event('b', {
          created: '2026-11-01T11:58:00Z',
          lastTimestamp: '2026-11-01T11:59:30Z',
          firstTimestamp: '2026-11-01T11:58:00Z',
        }),
        event('a', {
          created: '2026-11-01T11:00:00Z',
          lastTimestamp: null,
          eventTime: '2026-11-01T11:00:00.000000Z',
          involvedObject: { kind: 'Deployment', name: 'cart' },
          source: { component: 'deployment-controller' },
          type: 'Normal',
          reason: 'ScalingReplicaSet',
          message: 'Scaled up replica set cart-7d9f to 2',
          count: undefined,
        }),
      ],
      NOW,
    );
    const [head, first, second, end] = text.split('\n');
    expect(head?.split(/\s{2,}/)).toEqual([
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
    ]);
    expect(first?.split(/\s{3,}/)).toEqual([
      'shop',
      '60m',
      'Normal',
      'ScalingReplicaSet',
      'deployment/cart',
      'deployment-controller',
      'Scaled up replica set cart-7d9f to 2',
      '60m',
      '1',
      'a',
    ]);
    expect(second).toMatch(
      /^shop\s+30s\s+Warning\s+Unhealthy\s+pod\/cart-7d9f-abcde\s+spec\.containers\{istio-proxy\}\s+kubelet, node-1\s+Readiness probe failed: HTTP probe failed with statuscode: 503\s+2m\s+3\s+b$/,
    );
    expect(end).toBe('');
    // each column starts where its header does
    const at = (line: string | undefined, word: string) => line?.indexOf(word);
    expect(at(first, 'deployment/cart')).toBe(at(head, 'OBJECT'));
    expect(at(second, '2m')).toBe(at(head, 'FIRST SEEN'));
  });

  it('a time it cannot read is <unknown>, and no events is no text, as kubectl prints', () => {
    const t = eventsTable(
      [event('x', { created: 'soon', lastTimestamp: 'garbage', firstTimestamp: null })],
      NOW,
    );
    expect(t.split('\n')[1]).toMatch(/^shop\s+<unknown>\s/);
    expect(eventsTable([], NOW)).toBe('');
  });
});

describe('listYamlItems (kubectl -o yaml List)', () => {
  it("reads back as kubectl's List, every item typed, a real pod unchanged (kube-dns_pod_with_status.yaml)", () => {
    // istio/istio pkg/config/legacy/testing/data/builtin/pod.yaml (../shared/fixtures PROVENANCE.md)
    const pod = parse(readFixture('pods', 'kube-dns_pod_with_status.yaml')) as Record<
      string,
      unknown
    >;
    const { apiVersion: _a, kind: _k, ...bare } = pod;
    const text = LIST_YAML_HEAD + listYamlItems([bare, bare], 'v1', 'Pod') + LIST_YAML_TAIL;
    const doc = parseDocument(text);
    expect(doc.errors).toEqual([]);
    const list = doc.toJS() as { kind: string; items: Record<string, unknown>[] };
    expect(list.kind).toBe('List');
    expect(list.items).toHaveLength(2);
    expect(list.items[0]).toEqual({ ...bare, apiVersion: 'v1', kind: 'Pod' });
    expect(Object.keys(list.items[0] ?? {}).slice(0, 2)).toEqual(['apiVersion', 'kind']);
  });

  it('quotes what a YAML 1.1 reader would take for a time or a boolean', () => {
    const text = listYamlItems(
      [{ metadata: { creationTimestamp: '2026-11-01T00:53:51Z', labels: { on: 'yes' } } }],
      'v1',
      'Pod',
    );
    expect(text).toContain('creationTimestamp: "2026-11-01T00:53:51Z"');
    expect(text).toMatch(/"on": "yes"|'on': 'yes'/);
    expect(listYamlItems([], 'v1', 'Pod')).toBe('');
  });
});

describe('configDumpWithoutSecrets', () => {
  it("leaves out the SecretsConfigDump and keeps the rest (istioctl's testdata dumps)", () => {
    // istioctl/pkg/writer/envoy/configdump/testdata/secret/istio/config_dump.json: secrets only
    const secrets = configDumpWithoutSecrets(
      readFixture('config_dump', 'secrets_istio_config_dump.json'),
    );
    expect(secrets).toMatchObject({ droppedSecrets: true });
    if ('error' in secrets) throw new Error(secrets.error);
    expect(JSON.parse(secrets.text)).toEqual({ configs: [] });
    expect(secrets.text).not.toMatch(/BEGIN CERTIFICATE|inline_bytes/);
    const full = readFixture('config_dump', 'istio-echo-a_sidecar_config_dump.json');
    const kept = configDumpWithoutSecrets(full);
    if ('error' in kept) throw new Error(kept.error);
    const before = (JSON.parse(full) as { configs: { '@type': string }[] }).configs.map(
      (c) => c['@type'],
    );
    const after = (JSON.parse(kept.text) as { configs: { '@type': string }[] }).configs.map(
      (c) => c['@type'],
    );
    expect(after).toEqual(before.filter((t) => !t.endsWith('.SecretsConfigDump')));
    expect(kept.droppedSecrets).toBe(before.length !== after.length);
  });

  it('says why a text is not a config dump', () => {
    expect(configDumpWithoutSecrets('{"configs": 3}')).toEqual({
      error: 'not an Envoy config dump: it has no "configs" list',
    });
    expect(configDumpWithoutSecrets('[1]')).toMatchObject({ error: /expected an object/ });
    expect(configDumpWithoutSecrets('outbound|80||a::1.2.3.4:80::cx_active::0')).toMatchObject({
      error: /^not JSON/,
    });
  });
});

describe('the layout', () => {
  it('names a proxy file as istioctl does, ?include_eds literally', () => {
    expect(proxyEntry('shop', 'cart-1', 'config_dump?include_eds')).toBe(
      'bug-report/proxies/shop/cart-1/config_dump?include_eds',
    );
  });

  it('reads --since as a Go duration and refuses the rest by name', () => {
    expect(parseSince('30m')).toEqual({ ms: 30 * 60 * S });
    expect(parseSince('1h30m')).toEqual({ ms: 90 * 60 * S });
    expect(parseSince('30')).toMatchObject({ error: /not a duration.*30m/ });
    expect(parseSince('yesterday')).toMatchObject({ error: /not a duration/ });
    expect(parseSince('500ms')).toMatchObject({ error: /shorter than one second/ });
  });

  it("joins a restarted container's logs with istioctl's separators", () => {
    expect(joinedProxyLog('now\n', null)).toBe('now\n');
    expect(joinedProxyLog('now\n', '  \n')).toBe('now\n');
    const joined = joinedProxyLog('now', 'before');
    expect(joined.indexOf(PREVIOUS_LOG_PRESENT)).toBe(0);
    expect(joined.indexOf('now')).toBeLessThan(joined.indexOf(PREVIOUS_LOG));
    expect(joined.endsWith('before')).toBe(true);
  });
});
