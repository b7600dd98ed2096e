import { describe, it, expect } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { analyzePod } from './analyze';
import { deepMerge, memoYaml, restartFix, templatePatch } from './fix';
import { parseJsonFirst, parseProxyConfigText } from './proxyconfig';
import { readFixture } from '../../test-support/fixtures';
import { buildPod, type PodOpts } from '../../tests/data/timeline/builders';
import type { Pod } from '../kube/types';

const ANN = 'proxy.istio.io/config';
/** Existing settings with a quote inside a value and nested proxyMetadata entries. */
const EXISTING = {
  meshId: "o'k",
  concurrency: 2,
  proxyMetadata: { ISTIO_META_DNS_CAPTURE: 'true', NOTE: `it's "quoted"` },
};

const owner = { replicaSet: 'web-7d9f8b6c5d', hash: '7d9f8b6c5d' };
/** Hand-written pods covering every verdict that carries a fix. */
const PODS: Record<string, PodOpts> = {
  race: { mode: 'classic', apps: [{ name: 'app', startedAt: 1 }], proxy: { startedAt: 4 } },
  'race-restart': {
    mode: 'classic',
    apps: [
      {
        name: 'app',
        startedAt: 9,
        restarts: 1,
        last: { startedAt: 1, finishedAt: 2, exitCode: 1 },
      },
    ],
    proxy: { startedAt: 3 },
    conditions: { ContainersReady: 10 },
  },
  'classic-ok': {
    mode: 'classic',
    apps: [{ name: 'app', startedAt: 30 }],
    proxy: { startedAt: 1 },
    conditions: { ContainersReady: 31 },
  },
  unknown: { mode: 'classic', noStatus: true },
  'drain-too-short': { mode: 'classic', apps: [{ name: 'app', startedAt: 9, preStopSleep: 20 }] },
  'grace-exceeded': {
    mode: 'classic',
    apps: [{ name: 'app', startedAt: 9, preStopSleep: 40 }],
    grace: 30,
  },
  wrapper: {
    mode: 'classic',
    apps: [
      {
        name: 'app',
        startedAt: 1,
        command: ['sh', '-c', 'until curl -fs localhost:15021/healthz/ready; do sleep 1; done'],
      },
    ],
    proxy: { startedAt: 4 },
  },
};

function deepContains(actual: unknown, expected: unknown): void {
  if (expected && typeof expected === 'object') {
    expect(actual).toBeTypeOf('object');
    for (const [k, v] of Object.entries(expected))
      deepContains((actual as Record<string, unknown>)[k], v);
  } else expect(actual).toEqual(expected);
}

function annotationOf(doc: unknown): string | undefined {
  type Node = { [k: string]: Node | string | undefined } | undefined;
  const d = doc as Node;
  const get = (n: Node, ...keys: string[]): Node =>
    keys.reduce<Node>((x, k) => (typeof x === 'object' ? (x[k] as Node) : undefined), n);
  const tpl = get(d, 'spec', 'template') ?? get(d, 'spec', 'jobTemplate', 'spec', 'template') ?? d;
  const v = get(tpl, 'metadata', 'annotations')?.[ANN];
  return typeof v === 'string' ? v : undefined;
}

describe('fix YAML', () => {
  for (const existing of [
    JSON.stringify(EXISTING),
    // the same settings written as YAML in the annotation
    'meshId: "o\'k"\nconcurrency: 2\nproxyMetadata:\n  ISTIO_META_DNS_CAPTURE: "true"\n  NOTE: \'it\'\'s "quoted"\'\n',
  ]) {
    it(`every fix of every verdict parses, and keeps the existing annotation (${existing.slice(0, 12)}...)`, () => {
      const seen = new Set<string>();
      let annotated = 0;
      for (const [name, opts] of Object.entries(PODS)) {
        for (const kindOwner of [owner, undefined]) {
          const pod = buildPod({ ...opts, owner: kindOwner, annotations: { [ANN]: existing } });
          const t = analyzePod(pod);
          expect(t.notes.join(' ')).not.toContain('unreadable');
          for (const v of t.verdicts) {
            seen.add(v.verdict);
            for (const f of v.fixes) {
              const doc: unknown = parse(f.yaml ?? '');
              const ann = annotationOf(doc);
              if (ann === undefined) continue;
              annotated++;
              const cfg = JSON.parse(ann) as Record<string, unknown>;
              deepContains(cfg, EXISTING);
              // and the fix added something of its own
              expect(JSON.stringify(cfg), name).not.toBe(JSON.stringify(EXISTING));
            }
          }
        }
      }
      expect([...seen].sort()).toEqual(
        [
          'classic-ok',
          'drain-too-short',
          'grace-exceeded',
          'held-ok',
          'race',
          'race-restart',
          'unknown',
        ].sort(),
      );
      expect(annotated).toBeGreaterThan(10);
    });
  }

  it('EXIT_ON_ZERO_ACTIVE_CONNECTIONS is added to the existing proxyMetadata, as a template patch', () => {
    const pod = buildPod({
      ...PODS['drain-too-short']!,
      owner,
      annotations: { [ANN]: JSON.stringify(EXISTING) },
    });
    const v = analyzePod(pod).verdicts.find((x) => x.verdict === 'drain-too-short');
    const eoz = v?.fixes.find((f) => f.yaml?.includes('EXIT_ON_ZERO'));
    expect(eoz?.yaml).toMatch(/^# kubectl -n shop patch deployment web --type merge/);
    const cfg = JSON.parse(annotationOf(parse(eoz?.yaml ?? '')) ?? '{}') as typeof EXISTING;
    expect(cfg.proxyMetadata).toEqual({
      ...EXISTING.proxyMetadata,
      EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true',
    });
    expect(cfg.meshId).toBe("o'k");
  });

  it('an unreadable annotation is said to be replaced', () => {
    const pod = buildPod({ ...PODS.race!, annotations: { [ANN]: '{"meshId": tru' } });
    const fix = analyzePod(pod).verdicts[0]?.fixes[0]?.yaml ?? '';
    expect(fix).toContain('could not be read: this value replaces it');
    expect(JSON.parse(annotationOf(parse(fix)) ?? '')).toEqual({
      holdApplicationUntilProxyStarts: true,
    });
  });

  it('deepMerge merges mappings at every level and replaces the rest', () => {
    expect(deepMerge({ a: { b: 1, c: { d: 1 } }, l: [1] }, { a: { c: { e: 2 } }, l: [2] })).toEqual(
      { a: { b: 1, c: { d: 1, e: 2 } }, l: [2] },
    );
  });
});

describe('fixes per owner kind: only what kubectl can do', () => {
  const w = (kind: string, name = 'x') => ({ kind, name, namespace: 'ns' });
  const tpl = { metadata: { annotations: { a: 'b' } } };

  it('rolling controllers are patched and restarted with rollout restart', () => {
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet']) {
      expect(templatePatch(w(kind), tpl)).toContain(`patch ${kind.toLowerCase()} x`);
      expect(parse(templatePatch(w(kind), tpl))).toEqual({ spec: { template: tpl } });
      expect(restartFix(w(kind), 'y').yaml).toBe(
        `kubectl -n ns rollout restart ${kind.toLowerCase()} x\n`,
      );
    }
  });

  it('a bare ReplicaSet or pod is recreated, never rollout-restarted', () => {
    expect(restartFix(w('ReplicaSet'), 'y').yaml).not.toContain('rollout restart replicaset');
    expect(restartFix(w('ReplicaSet'), 'y').yaml).toContain('delete pods');
    // the selector is read from the ReplicaSet itself: a command to paste, no placeholder
    expect(restartFix(w('ReplicaSet'), 'y').yaml).not.toMatch(/<[^>]+>/);
    expect(restartFix(w('ReplicaSet'), 'y').yaml).toContain('.spec.selector.matchLabels');
    expect(templatePatch(w('ReplicaSet'), tpl)).toContain('delete its pods');
    expect(restartFix(w('Pod'), 'y').yaml).toContain('recreate the pod');
    expect(templatePatch(w('Pod'), tpl)).toContain('cannot be patched in place');
    expect(parse(templatePatch(w('Pod'), tpl))).toEqual(tpl);
  });

  it('a Job is never patched in place: the fix goes to the next Job (CronJob jobTemplate)', () => {
    const text = templatePatch(w('Job', 'backup-28934520'), tpl);
    expect(text).not.toContain('patch job ');
    expect(text).toContain('applies to the next Job');
    expect(text).toContain('kubectl -n ns patch cronjob backup --type merge');
    expect(parse(text)).toEqual({ spec: { jobTemplate: { spec: { template: tpl } } } });
    const pod: Pod = buildPod({ ...PODS.race!, noStatus: false });
    pod.metadata.ownerReferences = [{ kind: 'Job', name: 'once', controller: true }];
    const fixes = analyzePod(pod).verdicts.flatMap((v) => v.fixes);
    for (const f of fixes) expect(f.yaml).not.toMatch(/patch job|rollout restart job/);
  });
});

describe('fix YAML for a fleet', () => {
  it('a memo writes the same text as a fresh write, once per distinct body', () => {
    const toYaml = memoYaml(2);
    const pods = Object.entries(PODS).map(([name, opts]) => buildPod({ ...opts, name, owner }));
    for (const pod of pods) {
      const fresh = analyzePod(pod).verdicts.flatMap((v) => v.fixes.map((f) => f.yaml));
      const memo = analyzePod(pod, { toYaml }).verdicts.flatMap((v) => v.fixes.map((f) => f.yaml));
      const again = analyzePod(pod, { toYaml }).verdicts.flatMap((v) => v.fixes.map((f) => f.yaml));
      expect(memo).toEqual(fresh);
      expect(again).toEqual(fresh);
    }
  });
});

describe('ProxyConfig text', () => {
  it('reads the JSON the injector writes exactly as the YAML parser does', () => {
    for (const file of ['injected_pod.yaml', 'injected_native-sidecar.yaml']) {
      const pod = parseAllDocuments(readFixture('pods', file))[0]?.toJS() as Pod;
      const env = pod.spec.containers
        .concat(pod.spec.initContainers ?? [])
        .flatMap((c) => c.env ?? [])
        .find((e) => e.name === 'PROXY_CONFIG');
      expect(env?.value, file).toBeDefined();
      expect(parseJsonFirst(env?.value ?? '')).toEqual(parse(env?.value ?? ''));
    }
    const text = '{"holdApplicationUntilProxyStarts": true, "proxyMetadata": {"A": "x\\": y"}}';
    expect(parseJsonFirst(text)).toEqual(parse(text));
    expect(parseProxyConfigText(text).settings.hold).toBe(true);
  });

  it('leaves JSON with a repeated key, and YAML, to the YAML parser', () => {
    expect(parseProxyConfigText('{"drainDuration": "5s", "drainDuration": "9s"}').error).toMatch(
      /unique/i,
    );
    expect(parseProxyConfigText('holdApplicationUntilProxyStarts: true').settings.hold).toBe(true);
    expect(parseProxyConfigText('{holdApplicationUntilProxyStarts: true}').settings.hold).toBe(
      true,
    );
  });
});
