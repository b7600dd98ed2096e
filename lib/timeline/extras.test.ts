import { describe, it, expect } from 'vitest';
import { parseMeshConfig } from './meshconfig';
import { readFixture } from '../../test-support/fixtures';
import { analyzePod, analyzePods } from './analyze';
import { buildGantt } from './gantt';
import { summarizeFleet } from './fleet';
import { timelineFindings } from './findings';
import { timelineCatalog } from './codes';
import { buildPod, event, at } from '../../tests/data/timeline/builders';

/** The istio ConfigMap as `kubectl get cm istio -o json` gives it, with this mesh text. */
const istioConfigMap = (mesh: string) =>
  JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'istio' }, data: { mesh } });

describe('mesh config', () => {
  it('reads the ConfigMap mesh key, raw mesh and meshConfig', () => {
    const cm = parseMeshConfig(
      istioConfigMap(
        'defaultConfig:\n  holdApplicationUntilProxyStarts: true\n  terminationDrainDuration: 20s\n',
      ),
    );
    expect(cm).toEqual({
      settings: { from: 'configmap', hold: true, drainMs: 20000 },
      errors: [],
      // the mesh config itself, for the checks that read more of it than these settings
      mesh: {
        defaultConfig: { holdApplicationUntilProxyStarts: true, terminationDrainDuration: '20s' },
      },
    });
    expect(
      parseMeshConfig('meshConfig:\n  defaultConfig:\n    holdApplicationUntilProxyStarts: true\n')
        .settings.hold,
    ).toBe(true);
  });

  it('reads rootNamespace wherever the mesh config is, and only a namespace name', () => {
    const cm = parseMeshConfig(
      istioConfigMap(
        'rootNamespace: istio-config\ndefaultConfig:\n  terminationDrainDuration: 5s\n',
      ),
    );
    expect(cm.settings).toEqual({
      from: 'configmap',
      drainMs: 5000,
      rootNamespace: 'istio-config',
    });
    expect(parseMeshConfig('rootNamespace: mesh-root\n').settings).toEqual({
      from: 'mesh',
      rootNamespace: 'mesh-root',
    });
    expect(
      parseMeshConfig('spec:\n  meshConfig:\n    rootNamespace: istio-config\n').settings
        .rootNamespace,
    ).toBe('istio-config');
    // not a namespace name: left out (the default applies), never used as one
    expect(parseMeshConfig('rootNamespace: Istio_Config\n').settings.rootNamespace).toBeUndefined();
    expect(parseMeshConfig('rootNamespace: 7\n').settings.rootNamespace).toBeUndefined();
  });

  it('the real analyzer meshconfig fixture has a defaultConfig without these fields', () => {
    const r = parseMeshConfig(readFixture('istio_config', 'analyzer', 'common', 'meshconfig.yaml'));
    expect(r.settings).toEqual({ from: 'mesh' });
    expect(r.errors).toEqual([]);
    expect(Object.keys(r.mesh ?? {})).toContain('defaultConfig');
  });

  it('errors inside data.mesh carry a position', () => {
    const r = parseMeshConfig('kind: ConfigMap\ndata:\n  mesh: "defaultConfig: [1"\n');
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors[0]?.message).toContain('data.mesh');
  });

  it('an error inside data.mesh points at the data.mesh string in the file and says where inside', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\ndata:\n  mesh: |-\n    defaultConfig:\n      holdApplicationUntilProxyStarts: [true\n';
    const r = parseMeshConfig(text);
    expect(r.errors[0]).toMatchObject({ line: 6, column: 9 });
    expect(r.errors[0]?.message).toMatch(
      /^inside data\.mesh, at line \d+ column \d+ of its text: /,
    );
    // JSON ConfigMap (kubectl get cm -o json): data.mesh is one string on line 1 of a List item
    const json = JSON.stringify(
      { kind: 'List', items: [{ kind: 'ConfigMap', data: { mesh: 'defaultConfig: [1' } }] },
      null,
      1,
    );
    const j = parseMeshConfig(json);
    expect(j.errors[0]?.line).toBe(json.split('\n').findIndex((l) => l.includes('"mesh"')) + 1);
    expect(j.errors[0]?.message).toContain('inside data.mesh');
  });
});

describe('gantt, fleet, findings', () => {
  it('gantt rows and markers for a restarted app with events and deletion', () => {
    const pod = buildPod({
      mode: 'classic',
      apps: [
        {
          name: 'app',
          startedAt: 12,
          restarts: 1,
          last: { startedAt: 1, finishedAt: 2, exitCode: 1, reason: 'Error' },
        },
      ],
      proxy: { startedAt: 3 },
      conditions: { PodScheduled: 0, Initialized: 1, ContainersReady: 13, Ready: 13 },
      deletion: { at: 100, grace: 30 },
    });
    const events = [
      event(pod, 'Unhealthy', 'Readiness probe failed: 503', 4, { container: 'istio-proxy' }),
      event(pod, 'Killing', 'Stopping container app', 100, { container: 'app' }),
    ];
    const t = analyzePod(pod, { events });
    const g = buildGantt(pod, t, events);
    expect(g.rows.map((r) => [r.container, r.role])).toEqual([
      ['istio-init', 'init'],
      ['app', 'app'],
      ['istio-proxy', 'proxy'],
    ]);
    expect(g.rows[1]?.segments.map((s) => [s.kind, s.from, s.to])).toEqual([
      ['waiting', at(0), at(1)],
      // the first run was running until it exited at 2 s: red only means "terminated then"
      ['running', at(1), at(2)],
      ['restart', at(2), at(12)],
      ['running', at(12), null],
    ]);
    const kinds = g.markers.map((m) => m.kind);
    expect(kinds).toEqual([
      'scheduled',
      'initialized',
      'probe-failed',
      'containers-ready',
      'ready',
      'proxy-ready', // 4 s failure + 10 s period, capped at ContainersReady (13 s)
      'killing',
      'deletion',
      'grace-end',
    ]);
    expect(g.markers.find((m) => m.kind === 'proxy-ready')?.time).toBe(at(13));
    expect(g.markers.find((m) => m.kind === 'deletion')?.time).toBe(at(100));
    expect(g.start).toBe(at(0));
    expect(g.end).toBe(at(130));
  });

  it('fleet summary counts verdicts and gap distribution per workload', () => {
    const owner = { replicaSet: 'web-7d9f8b6c5d', hash: '7d9f8b6c5d' };
    const pods = [1, 2, 3].map((s, i) =>
      buildPod({
        name: `web-7d9f8b6c5d-${i}`,
        uid: `u${i}`,
        mode: 'classic',
        owner,
        apps: [{ name: 'app', startedAt: s }],
        proxy: { startedAt: 1 },
      }),
    );
    const init = { u0: 3000, u1: 3000, u2: 500 };
    const s = summarizeFleet(
      analyzePods([...pods, buildPod({ mode: 'none' })], { envoyInitMs: init }),
    );
    // gaps: 1-4 = -3 s, 2-4 = -2 s, 3-1.5 = +1.5 s
    const web = s.workloads.find((w) => w.name === 'web');
    expect(web).toMatchObject({
      kind: 'Deployment',
      pods: 3,
      measured: 3,
      minMs: -3000,
      medianMs: -2000,
      maxMs: 1500,
    });
    expect(s.byVerdict).toEqual({ race: 2, 'classic-ok': 1 });
    expect(s.byMode).toEqual({ classic: 3, none: 1 });
    expect(s.excluded).toBe(1);
  });

  it('findings use the catalog codes and severities', () => {
    const t = analyzePod(
      buildPod({ mode: 'classic', apps: [{ name: 'app', startedAt: 1 }], proxy: { startedAt: 5 } }),
    );
    const f = timelineFindings(t);
    expect(f.map((x) => [x.code, x.severity])).toEqual([['MDX0101', 'warning']]);
    expect(f[0]?.subject).toEqual({ kind: 'Pod', namespace: 'shop', name: 'web-7d9f8b6c5d-abcde' });
    const codes = timelineCatalog().map((c) => c.code);
    expect(new Set(codes).size).toBe(19);
    expect(codes.every((c) => /^MDX01\d\d$/.test(c))).toBe(true);
  });
});

describe('jsonErrorOffset', () => {
  it('points at the first bad character, -1 for valid JSON', async () => {
    const { jsonErrorOffset } = await import('./jsonerror');
    expect(jsonErrorOffset('{"a": [1, 2}')).toBe(11);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('{"a": {"b": "x\\"y"}, "c": [true, null, -1.5e3]}')).toBe(-1);
  });
});
