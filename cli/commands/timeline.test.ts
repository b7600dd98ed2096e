import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './timeline';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath } from '../../test-support/fixtures';
import { buildPod } from '../../tests/data/timeline/builders';

const dir = tempDir('timeline');
const io = () => fakeIO(dir);

function write(name: string, text: string): string {
  fs.writeFileSync(path.join(dir, name), text);
  return name;
}

describe('meshdx timeline', () => {
  it('prints exactly the documented JSON keys for a fixture pod', async () => {
    const t = io();
    expect(await run([fixturePath('pods', 'injected_native-sidecar.yaml'), '--json'], t)).toBe(0);
    const out = JSON.parse(t.out) as { pods: Record<string, unknown>[] };
    expect(out.pods).toHaveLength(1);
    expect(Object.keys(out.pods[0] ?? {}).sort()).toEqual(
      [
        'appStartedAt',
        'codes',
        'fix',
        'fixes',
        'gapMs',
        'mode',
        'name',
        'namespace',
        'notes',
        'proxyReadyAt',
        'proxyReadySource',
        'restarts',
        'verdicts',
      ].sort(),
    );
    expect(out.pods[0]).toMatchObject({
      name: 'hello',
      mode: 'native',
      // the fixture is a spec without status: native, but the order was not observed
      verdicts: ['native-unobserved'],
      codes: ['MDX0109'],
      fix: null,
    });
  });

  it('a PodList with a racing pod and a mesh ConfigMap setting a long drain', async () => {
    const racing = buildPod({
      name: 'api-5f6d7c8b9-x1',
      mode: 'classic',
      apps: [{ name: 'app', startedAt: 1, preStopSleep: 10 }],
      proxy: { startedAt: 4 },
      conditions: { ContainersReady: 8 },
    });
    const file = write('pods.json', JSON.stringify({ kind: 'PodList', items: [racing] }, null, 2));
    const cm = write(
      'istio-cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\ndata:\n  mesh: |-\n    defaultConfig:\n      terminationDrainDuration: 15s\n',
    );
    const t = io();
    expect(await run([file, '--mesh-config', cm, '--json'], t)).toBe(0);
    const pod = (JSON.parse(t.out) as { pods: Record<string, unknown>[] }).pods[0];
    expect(pod).toMatchObject({
      mode: 'classic',
      verdicts: ['race'],
      codes: ['MDX0101'],
      gapMs: -7000,
      proxyReadySource: 'containers-ready',
      restarts: 0,
    });
    expect(pod?.fix).toContain('holdApplicationUntilProxyStarts');
    // Without the mesh config, the default 5 s drain is shorter than the 10 s preStop.
    const t2 = io();
    await run([file, '--json'], t2);
    expect((JSON.parse(t2.out) as { pods: { verdicts: string[] }[] }).pods[0]?.verdicts).toEqual([
      'race',
      'drain-too-short',
    ]);
  });

  it('text mode prints a table with one row per pod', async () => {
    const t = io();
    expect(await run([fixturePath('pods', 'kube-dns_pod_with_status.yaml')], t)).toBe(0);
    const lines = t.out.split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+POD\s+MODE\s+VERDICTS/);
    expect(lines[1]).toMatch(/^kube-system\s+kube-dns-548976df6c-d9kkv\s+none\s+-/);
    expect(t.out).toContain('no istio-proxy');
  });

  it('unreadable input names the file and position, exit 2', async () => {
    const bad = write(
      'bad.json',
      '{"kind":"PodList","items":[\n  {"metadata": {"name": "a"}, "spec": {"containers": [}]}\n]}\n',
    );
    const t = io();
    expect(await run([bad], t)).toBe(2);
    expect(t.err).toMatch(/^meshdx timeline: bad\.json:2:\d+: invalid JSON/);
    const t2 = io();
    expect(await run(['missing.yaml'], t2)).toBe(2);
    expect(t2.err).toContain('no such file');
  });

  it('bad mesh config and bad usage exit 2', async () => {
    const pods = write(
      'one.yaml',
      fs.readFileSync(fixturePath('pods', 'injected_pod.yaml'), 'utf8'),
    );
    const mesh = write('mesh.yaml', 'defaultConfig:\n  holdApplicationUntilProxyStarts: [true\n');
    const t = io();
    expect(await run([pods, '--mesh-config', mesh], t)).toBe(2);
    expect(t.err).toMatch(/mesh\.yaml:\d+:\d+:/);
    const t2 = io();
    expect(await run([], t2)).toBe(2);
    expect(await run([pods, '--bogus'], t2)).toBe(2);
    expect(t2.err).toContain('unknown option --bogus');
  });

  it('partly readable watch stream: judged as far as read, errors on stderr, exit 0', async () => {
    const p = buildPod({
      mode: 'hold',
      apps: [{ name: 'app', startedAt: 6 }],
      proxy: { startedAt: 1 },
    });
    const file = write(
      'watch.jsonl',
      `${JSON.stringify({ type: 'ADDED', object: p })}\n{"type":"MODIFIED","object":{`,
    );
    const t = io();
    expect(await run([file, '--json'], t)).toBe(0);
    expect(t.err).toContain('watch.jsonl:2:1: unterminated JSON value');
    expect(t.err).toContain('1 part(s) of watch.jsonl could not be read');
    expect((JSON.parse(t.out) as { pods: { mode: string }[] }).pods.map((x) => x.mode)).toEqual([
      'hold',
    ]);
  });

  it('a garbage line and a broken YAML document: report of the rest, each error, exit 0', async () => {
    const p = buildPod({ mode: 'native', apps: [{ name: 'app', startedAt: 6 }] });
    const line = JSON.stringify({ type: 'ADDED', object: p });
    const file = write('garbage.jsonl', `${line}\ngarbage here {\n${line}\n`);
    const t = io();
    expect(await run([file, '--json'], t)).toBe(0);
    expect(t.err).toMatch(/garbage\.jsonl:2:1: text outside JSON/);
    expect(t.err).toContain('1 part(s) of garbage.jsonl could not be read');
    expect((JSON.parse(t.out) as { pods: unknown[] }).pods).toHaveLength(1);
    const good = 'kind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n    - name: app\n';
    const multi = write(
      'multi.yaml',
      `${good}---\nkind: Pod\nspec:\n  containers: [\n    - x\n---\n${good.replace('name: a', 'name: b')}`,
    );
    const t2 = io();
    expect(await run([multi], t2)).toBe(0);
    expect(t2.out).toMatch(/^default\s+a\s+none/m);
    expect(t2.out).toMatch(/^default\s+b\s+none/m);
    expect(t2.err).toMatch(/multi\.yaml:\d+:\d+: /);
    expect(t2.err).toContain('1 part(s) of multi.yaml could not be read');
  });

  it('prints every verdict fix; --json keeps the primary fix and lists all in fixes', async () => {
    // no status: unknown startup; preStop 20 s with the default 5 s drain: drain-too-short
    const pod = buildPod({
      name: 'api-5f6d7c8b9-x1',
      mode: 'classic',
      noStatus: true,
      apps: [{ name: 'app', preStopSleep: 20 }],
      owner: { replicaSet: 'api-5f6d7c8b9', hash: '5f6d7c8b9' },
      grace: 60,
      annotations: { 'proxy.istio.io/config': '{"holdApplicationUntilProxyStarts": tru' },
    });
    const file = write('two.json', JSON.stringify(pod));
    const t = io();
    expect(await run([file, '--json'], t)).toBe(0);
    const row = (
      JSON.parse(t.out) as {
        pods: { verdicts: string[]; fix: string; fixes: { verdict: string }[]; notes: string[] }[];
      }
    ).pods[0];
    expect(row?.verdicts).toEqual(['unknown', 'drain-too-short']);
    // drain-too-short (warning) is more severe than unknown (info): its fix is the primary one
    expect(row?.fix).toContain('terminationDrainDuration');
    expect(new Set(row?.fixes.map((f) => f.verdict))).toEqual(
      new Set(['unknown', 'drain-too-short']),
    );
    expect(row?.notes.join(' ')).toContain('annotation proxy.istio.io/config unreadable');
    expect(t.err).toContain('kubectl get pods,events -A -o json');
    const t2 = io();
    expect(await run([file], t2)).toBe(0);
    expect(t2.out).toContain('fix (unknown):');
    expect(t2.out).toContain('fix (drain-too-short):');
    expect(t2.out).toContain('"terminationDrainDuration":"25s"');
    expect(t2.out).toContain('note: annotation proxy.istio.io/config unreadable');
    expect(t2.out).toContain('hint: some pods are unknown; capture events too');
  });

  it('a mesh config error inside a ConfigMap data.mesh says so', async () => {
    const pods = write('p.yaml', fs.readFileSync(fixturePath('pods', 'injected_pod.yaml'), 'utf8'));
    const cm = write(
      'cm.json',
      JSON.stringify({
        kind: 'ConfigMap',
        data: { mesh: 'defaultConfig:\n  holdApplicationUntilProxyStarts: [true\n' },
      }),
    );
    const t = io();
    expect(await run([pods, '--mesh-config', cm], t)).toBe(2);
    expect(t.err).toMatch(/cm\.json:1:\d+: inside data\.mesh, at line \d+ column \d+ of its text/);
  });

  it('bounded input: size, depth, empty, binary, no pods: a message naming the file, exit 2', async () => {
    const pod = JSON.stringify(buildPod({ mode: 'native', apps: [{ name: 'app', startedAt: 6 }] }));
    const big = write('big.json', `${pod}\n${' '.repeat(4000)}`);
    const t = fakeIO(dir);
    t.limits = { maxDocumentBytes: 2000 };
    expect(await run([big], t)).toBe(2);
    expect(t.err).toMatch(/big\.json is .* more than the 2\.0 KiB .*MESHDX_MAX_INPUT_BYTES/);
    const deep = write(
      'deep.json',
      `{"kind":"List","items":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
    );
    const d = io();
    expect(await run([deep], d)).toBe(2);
    expect(d.err).toMatch(/deep\.json:1:\d+: nested deeper than 256 levels/);
    expect(d.err).not.toMatch(/\n\s+at /);
    const cases: [string, string | Buffer, string][] = [
      ['empty.json', '\n\n', 'is empty'],
      ['bin.json', Buffer.from([0x7b, 0, 0xff, 0x7d]), 'binary'],
      ['events.json', JSON.stringify({ kind: 'EventList', items: [] }), 'no pods found'],
    ];
    for (const [name, content, why] of cases) {
      fs.writeFileSync(path.join(dir, name), content);
      const file = name;
      const e = io();
      expect(await run([file], e)).toBe(2);
      expect(e.err).toContain(name);
      expect(e.err).toContain(why);
    }
  });
});
