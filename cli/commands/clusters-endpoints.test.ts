import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './clusters';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath } from '../../test-support/fixtures';

/** `meshdx clusters` on endpoint sources: /clusters?format=json, EDS dumps, and --history. */
const dir = tempDir('clusters-endpoints');
const io = () => fakeIO(dir);

const DETAILS = fixturePath('config_dump', 'istio-details-v1_sidecar_config_dump_camelCase.json');

describe('meshdx clusters: endpoint tables', () => {
  it('prints the endpoint table of a /clusters?format=json answer, exit 0', async () => {
    const t = io();
    const file = fixturePath('clusters', 'istioctl_clusters_format_json.json');
    expect(await run([file], t)).toBe(0);
    expect(t.err).toBe('');
    const lines = t.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ENDPOINT +STATUS +OUTLIER CHECK +CLUSTER$/);
    expect(lines).toContain(
      '172.17.0.27:9080              HEALTHY       FAILED            outbound|9080||reviews.default.svc.cluster.local',
    );
    expect(lines.at(-1)).toBe(
      '9 endpoints in 7 clusters: 1 not HEALTHY, 1 ejected by outlier detection',
    );
    const j = io();
    expect(await run([file, '--json'], j)).toBe(0);
    const out = JSON.parse(j.out) as { endpoints: { endpoint: string }[]; clusters: number };
    expect(out.endpoints).toHaveLength(9);
    expect(out.clusters).toBe(7);
  });

  it('prints the endpoint table of a dump that holds only EDS, or of any dump with --endpoints', async () => {
    const eds = fixturePath('config_dump', 'eds_only_config_dump.json');
    const t = io();
    expect(await run([eds], t)).toBe(0);
    const lines = t.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ENDPOINT +STATUS +LOCALITY +CLUSTER +WORKLOAD$/);
    expect(lines).toHaveLength(1 + 36 + 1);
    expect(lines.find((l) => l.startsWith('10.244.0.192:9080'))).toMatch(
      /HEALTHY +outbound\|9080\|\|reviews\.default\.svc\.cluster\.local +default\/reviews-v3$/,
    );
    const j = io();
    expect(await run([eds, '--endpoints', '--json'], j)).toBe(0);
    expect((JSON.parse(j.out) as { source: string }).source).toBe('config-dump');
    // a dump without EDS: --endpoints says how to get one
    const none = io();
    expect(await run([DETAILS, '--endpoints'], none)).toBe(2);
    expect(none.err).toContain('?include_eds');
  });

  it('names who held each endpoint IP at a time, from a watch capture: phantoms stand out', async () => {
    // reviews pods as a kubectl watch capture: 172.17.0.27 was deleted at 10:05, the others live
    const pod = (name: string, ip: string, extra: Record<string, unknown> = {}) => ({
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `uid-${name}`,
        creationTimestamp: '2024-06-01T09:00:00Z',
        ...extra,
      },
      spec: { nodeName: 'node-1', containers: [{ name: 'app' }] },
      status: { phase: 'Running', startTime: '2024-06-01T09:00:01Z', podIP: ip },
    });
    const gone = { deletionTimestamp: '2024-06-01T10:05:30Z', deletionGracePeriodSeconds: 30 };
    const capture = [
      { type: 'ADDED', object: pod('reviews-v1-a', '172.17.0.24') },
      { type: 'ADDED', object: pod('reviews-v2-b', '172.17.0.26') },
      { type: 'ADDED', object: pod('reviews-v3-c', '172.17.0.27') },
      { type: 'MODIFIED', object: pod('reviews-v3-c', '172.17.0.27', gone) },
      { type: 'DELETED', object: pod('reviews-v3-c', '172.17.0.27', gone) },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    fs.writeFileSync(path.join(dir, 'pods.watch.json'), capture);
    const file = fixturePath('clusters', 'istioctl_clusters_format_json.json');
    const t = io();
    const args = [file, '--history', 'pods.watch.json', '--at', '2024-06-01T11:00:00Z'];
    expect(await run(args, t)).toBe(0);
    const lines = t.out.split('\n');
    expect(lines[0]).toMatch(/^ENDPOINT +STATUS +OUTLIER CHECK +CLUSTER +HELD BY +POD STATE$/);
    expect(lines.find((l) => l.startsWith('172.17.0.27:9080'))).toMatch(
      / default\/reviews-v3-c +terminated$/,
    );
    expect(lines.find((l) => l.startsWith('172.17.0.24:9080'))).toMatch(
      / default\/reviews-v1-a +live$/,
    );
    expect(lines.find((l) => l.startsWith('172.17.0.13:443'))).toMatch(/ - +unknown$/);
    expect(t.out).toContain(
      'at 2024-06-01T11:00:00.000Z: 1 endpoints of pods already gone, 0 of terminating pods, 5 of IPs no pod is known to hold, 2 live',
    );
    // each phantom is named with what the history says of it
    expect(t.out).toMatch(
      /^ {2}172\.17\.0\.27:9080 \(outbound\|9080\|\|reviews\.default\.svc\.cluster\.local\): .*reviews-v3-c.*gone/m,
    );
    const j = io();
    expect(await run([...args, '--json'], j)).toBe(0);
    const out = JSON.parse(j.out) as {
      at: string;
      endpoints: { endpoint: string; heldBy: { pod: string | null; state: string } | null }[];
    };
    expect(out.at).toBe('2024-06-01T11:00:00.000Z');
    expect(out.endpoints.find((e) => e.endpoint === '172.17.0.27:9080')?.heldBy).toMatchObject({
      pod: 'default/reviews-v3-c',
      state: 'terminated',
    });
    // no --at: the file's modification time, said so
    const m = io();
    expect(await run([file, '--history', 'pods.watch.json'], m)).toBe(0);
    expect(m.out).toContain('modification time: --at TIME sets another');
  });

  it('refuses a bad --at, --at without --history, and a history it cannot read', async () => {
    const file = fixturePath('clusters', 'istioctl_clusters_format_json.json');
    const bad = io();
    expect(await run([file, '--history', 'x', '--at', 'yesterday'], bad)).toBe(2);
    expect(bad.err).toContain('--at yesterday: not a time');
    const lone = io();
    expect(await run([file, '--at', '2024-06-01T11:00:00Z'], lone)).toBe(2);
    expect(lone.err).toContain('--at needs --history');
    const missing = io();
    expect(await run([file, '--history', 'nope.json'], missing)).toBe(2);
    expect(missing.err).toContain('cannot read history file');
  });

  it('lists no host it cannot place, says how many, exit 1', async () => {
    const file = path.join(dir, 'clusters-odd.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        cluster_statuses: [
          {
            name: 'outbound|80||a.b.svc.cluster.local',
            host_statuses: [
              { address: { socket_address: { address: '10.0.0.1', port_value: 80 } } },
              { address: { envoy_internal_address: {} } },
            ],
          },
        ],
      }),
    );
    const t = io();
    expect(await run([file], t)).toBe(1);
    expect(t.out).toContain('10.0.0.1:80');
    expect(t.err).toContain(
      '1 host has no address (neither socket, pipe nor internal listener): not shown',
    );
  });
});
