/**
 * One fix per object, over every simulator scenario: for each pod and each workload, the fixes
 * its findings offer first never set one key to two values (the proxy.istio.io/config annotation
 * is one value: a second, different annotation would replace the first), and the patch answers
 * each finding it is offered for (the longest drain, a grace period that covers it, hold on).
 */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ConfigMap, KubeEvent, Pod } from '../../lib/kube/types';
import { analyzePods } from '../../lib/timeline/analyze';
import { toFleetRow } from '../../lib/timeline/analysis-cache';
import { workloadFixes } from '../../lib/timeline/fleet-view';
import { parseMeshConfig } from '../../lib/timeline/meshconfig';
import { composeNeeds, unanswered } from '../../lib/timeline/fix-compose';
import { PROXY_CONFIG_ANNOTATION } from '../../lib/timeline/mode';
import type { FindingFix } from '../../lib/findings/types';
import { getScenario, scenarioNames } from '../../server/sim/scenarios';
import { harness } from '../../server/sim/scenarios/testing/fakes';
import { isJsonObject } from '../../lib/json-object';
import { podKey } from '../../lib/refs/pod-ref';
import { workloadText } from '../../lib/refs/workload-ref';

/** Every leaf a fix's YAML sets, as "path" -> value (the annotation's JSON keys included). */
function leaves(f: FindingFix): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, path: string) => {
    if (isJsonObject(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
      return;
    }
    out.set(path, JSON.stringify(v));
    if (path.endsWith(PROXY_CONFIG_ANNOTATION) && typeof v === 'string') {
      walk(JSON.parse(v) as unknown, `${path}#`);
    }
  };
  // a fix that is a command (kubectl describe, logs) is no mapping: it sets no key
  for (const doc of parseAllDocuments(f.yaml ?? '')) {
    const body: unknown = doc.toJS();
    if (isJsonObject(body)) walk(body, '');
  }
  return out;
}

/** "key: value A vs value B" for each key two fixes of one object set differently. */
function conflicts(fixes: readonly FindingFix[]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const f of fixes) {
    for (const [k, v] of leaves(f)) {
      const was = seen.get(k);
      if (was !== undefined && was !== v) out.push(`${k}: ${was} vs ${v}`);
      else seen.set(k, v);
    }
  }
  return out;
}

function analyzed(name: string) {
  const scenario = getScenario(name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  const h = harness(name);
  scenario.start(h.ctx);
  // a pod object without a spec (the demo keeps one to show a broken object) is no workload's
  const pods = h.store.list<Pod>('pods').filter((p) => (p as Partial<Pod>).spec !== undefined);
  const cm = h.store.list<ConfigMap>('configmaps').find((c) => c.metadata.name === 'istio');
  const mesh = cm ? parseMeshConfig(JSON.stringify(cm)).settings : undefined;
  const events = h.store.list<KubeEvent>('events');
  const timelines = analyzePods(pods, { ...(mesh ? { mesh } : {}), events });
  return pods.map((pod, i) => {
    const timeline = timelines[i] as (typeof timelines)[number];
    return { pod, timeline, row: toFleetRow(pod, timeline, null) };
  });
}

describe('one fix per object, on every simulator scenario', () => {
  it.each(scenarioNames())('%s: no pod and no workload gets two values for one key', (name) => {
    const items = analyzed(name);
    const problems: string[] = [];
    for (const { timeline: t, pod } of items) {
      const first = t.verdicts.flatMap((v) => (v.fixes[0] ? [v.fixes[0]] : []));
      for (const c of conflicts(first)) problems.push(`pod ${podKey(t.namespace, t.name)}: ${c}`);
      // the patch answers each finding it is the first fix of
      const asking = t.verdicts.filter((v) => v.needs);
      const merged = composeNeeds(
        asking.map((v) => v.needs as NonNullable<typeof v.needs>),
        pod.spec.terminationGracePeriodSeconds ?? 30,
      );
      for (const v of asking) {
        const why = unanswered(merged, v.needs as NonNullable<typeof v.needs>);
        if (why) problems.push(`pod ${t.name} ${v.verdict}: ${why}`);
      }
    }
    const byWorkload = new Map<string, FindingFix[]>();
    for (const w of workloadFixes(items)) {
      const key = workloadText(w);
      const list = byWorkload.get(key) ?? [];
      if (w.fixes[0]) list.push(w.fixes[0]);
      byWorkload.set(key, list);
    }
    for (const [key, fixes] of byWorkload) {
      for (const c of conflicts(fixes)) problems.push(`workload ${key}: ${c}`);
    }
    expect(problems).toEqual([]);
  });

  it('the race-drain pods get one annotation with hold and the drain, and a grace that covers it', () => {
    const items = analyzed('startup-race');
    const cart = items.find((a) => a.timeline.workload.name === 'cart');
    const fixes = cart?.timeline.verdicts.flatMap((v) => (v.fixes[0] ? [v.fixes[0]] : [])) ?? [];
    expect(fixes.length).toBeGreaterThan(1);
    expect(new Set(fixes.map((f) => f.yaml)).size).toBe(1);
    const set = leaves(fixes[0] as FindingFix);
    const cfg = [...set].find(([k]) =>
      k.endsWith(`${PROXY_CONFIG_ANNOTATION}#.terminationDrainDuration`),
    );
    expect(cfg?.[1]).toBe('"25s"');
    expect(
      [...set].find(([k]) =>
        k.endsWith(`${PROXY_CONFIG_ANNOTATION}#.holdApplicationUntilProxyStarts`),
      )?.[1],
    ).toBe('true');
  });
});
