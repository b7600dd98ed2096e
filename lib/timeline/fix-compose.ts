/**
 * One fix per object. Each verdict that asks for a change says what it needs (FixNeeds: keys of
 * proxy.istio.io/config, a terminationGracePeriodSeconds); the needs of one pod, or of every pod
 * of one workload, are merged into one patch: one annotation with every key the findings need
 * (the longest drain, hold on, proxyMetadata merged) and one grace period that covers the drain.
 * The patch is checked against each finding it answers, and it is the first fix of each of them:
 * applying the fixes of one object in any order gives the same template. Alternatives that write
 * the annotation are written on top of the merged patch, so none re-sets a value another finding
 * calls wrong.
 */
import type { FindingFix } from '../findings/types';
import type { Pod } from '../kube/types';
import {
  deepMerge,
  mergedProxyConfig,
  proxyConfigLostNote,
  templatePatch,
  type ToYaml,
} from './fix';
import { PROXY_CONFIG_ANNOTATION } from './mode';
import { DEFAULT_GRACE_S } from './proxyconfig';
import { parseDurationMs } from './time';
import type { FixNeeds, VerdictResult, Workload } from './types';
import { isJsonObject } from '../json-object';
import { mergeSleeps, preStopSleepContainers } from './fix-prestop';
import { stringify } from 'yaml';

type Json = Record<string, unknown>;

export type { FixNeeds };

/** Seconds the grace period keeps beyond the drain (the app's own shutdown after it). */
export const GRACE_OVER_DRAIN_S = 5;

const DRAIN = 'terminationDrainDuration';

function drainMsOf(c: Json): number | null {
  return parseDurationMs(c[DRAIN]);
}

/** The needs of many findings as one: the longest drain, the longest grace, every other key. */
export function composeNeeds(all: readonly FixNeeds[], graceS: number): FixNeeds {
  let config: Json = {};
  let grace: number | null = null;
  let drain: number | null = null;
  for (const n of all) {
    const d = drainMsOf(n.proxyConfig);
    if (d !== null) drain = Math.max(drain ?? 0, d);
    config = deepMerge(config, n.proxyConfig);
    if (n.graceSeconds !== null) grace = Math.max(grace ?? 0, n.graceSeconds);
  }
  if (drain !== null) {
    config[DRAIN] = `${Math.ceil(drain / 1000)}s`;
    // the grace period must cover the drain, or SIGKILL cuts it
    const cover = Math.ceil(drain / 1000) + GRACE_OVER_DRAIN_S;
    if (cover > Math.max(grace ?? 0, graceS)) grace = cover;
  }
  const sleeps = mergeSleeps(all);
  return {
    proxyConfig: config,
    graceSeconds: grace,
    ...(sleeps ? { preStopSleepSeconds: sleeps } : {}),
  };
}

/**
 * Why the merged needs do not answer one finding's needs, or null when they do: every key it
 * sets is set to the same value, a drain at least as long, a grace at least as long.
 */
export function unanswered(merged: FixNeeds, need: FixNeeds): string | null {
  for (const [k, v] of Object.entries(need.proxyConfig)) {
    const got = merged.proxyConfig[k];
    if (k === DRAIN) {
      const want = parseDurationMs(v);
      const have = parseDurationMs(got);
      if (want !== null && (have === null || have < want))
        return `${DRAIN} ${String(got)} is shorter than ${String(v)}`;
      continue;
    }
    if (isJsonObject(v) && isJsonObject(got)) {
      const inner = unanswered(
        { proxyConfig: got, graceSeconds: null },
        { proxyConfig: v, graceSeconds: null },
      );
      if (inner) return `${k}.${inner}`;
      continue;
    }
    if (JSON.stringify(got) !== JSON.stringify(v))
      return `${k} is ${JSON.stringify(got)}, not ${JSON.stringify(v)}`;
  }
  for (const [c, sec] of Object.entries(need.preStopSleepSeconds ?? {})) {
    const have = merged.preStopSleepSeconds?.[c];
    if (have === undefined || have < sec)
      return `the preStop sleep of ${c} is ${have ?? 'unset'}, shorter than ${sec} s`;
  }
  if (need.graceSeconds !== null && (merged.graceSeconds ?? 0) < need.graceSeconds)
    return `terminationGracePeriodSeconds ${merged.graceSeconds ?? 'unchanged'} is less than ${need.graceSeconds}`;
  return null;
}

/** The merged patch as one fix for the workload that owns the pod. */
export function mergedFix(
  pod: Pod,
  w: Workload,
  needs: FixNeeds,
  answers: readonly string[],
  toYaml: ToYaml = (b) => stringify(b, { lineWidth: 0 }),
  why?: string,
): FindingFix {
  const template: Json = {};
  const writes = Object.keys(needs.proxyConfig).length > 0;
  if (writes) {
    template.metadata = {
      annotations: { [PROXY_CONFIG_ANNOTATION]: mergedProxyConfig(pod, needs.proxyConfig) },
    };
  }
  const spec: Json = {};
  const sleeps = needs.preStopSleepSeconds;
  if (sleeps) spec.containers = preStopSleepContainers(sleeps);
  if (needs.graceSeconds !== null) spec.terminationGracePeriodSeconds = needs.graceSeconds;
  if (Object.keys(spec).length > 0) template.spec = spec;
  const keys = [
    ...Object.keys(needs.proxyConfig),
    ...(sleeps ? ['preStop sleep'] : []),
    ...(needs.graceSeconds !== null ? ['terminationGracePeriodSeconds'] : []),
  ];
  return {
    why:
      why ??
      `one patch for ${answers.join(', ')}: ${keys.join(', ')} set once, for every finding of this object`,
    yaml:
      (writes ? proxyConfigLostNote(pod) : '') +
      templatePatch(w, template, toYaml, sleeps ? 'strategic' : 'merge'),
  };
}

/** A fix that writes proxy.istio.io/config (it would replace the merged annotation). */
function writesProxyConfig(f: FindingFix): boolean {
  return f.yaml?.includes(`${PROXY_CONFIG_ANNOTATION}:`) === true;
}

/** The drain finding's alternative on top of the merged patch: drain until connections close. */
function exitOnZeroAlternative(
  pod: Pod,
  w: Workload,
  merged: FixNeeds,
  toYaml: ToYaml | undefined,
): FindingFix {
  const config = deepMerge(merged.proxyConfig, {
    proxyMetadata: { EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true' },
  });
  return mergedFix(
    pod,
    w,
    { ...merged, proxyConfig: config },
    [],
    toYaml,
    'or, on top of the same patch, let the proxy drain until the app has closed its connections (then MINIMUM_DRAIN_DURATION applies)',
  );
}

/**
 * The verdicts of one object (a pod, or every pod of a workload) with one merged fix first:
 * new verdict objects, the given ones untouched. `pod` is the object's pod whose annotations the
 * patch keeps (the newest live one). Verdicts without needs are returned as they are.
 */
export function withMergedFix(
  pod: Pod,
  w: Workload,
  verdicts: readonly VerdictResult[],
  toYaml?: ToYaml,
): { verdicts: VerdictResult[]; fix: FindingFix | null; needs: FixNeeds | null } {
  const asking = verdicts.filter((v) => v.needs !== undefined);
  if (asking.length === 0) return { verdicts: [...verdicts], fix: null, needs: null };
  // one finding (or the same one on several pods with the same fix): its own fix is the patch
  const first = asking[0] as VerdictResult;
  if (
    asking.every(
      (v) =>
        v.verdict === first.verdict &&
        JSON.stringify(v.needs) === JSON.stringify(first.needs) &&
        JSON.stringify(v.fixes) === JSON.stringify(first.fixes),
    )
  )
    return { verdicts: [...verdicts], fix: first.fixes[0] ?? null, needs: first.needs ?? null };
  const graceS = pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_S;
  const needs = composeNeeds(
    asking.map((v) => v.needs as FixNeeds),
    graceS,
  );
  const answered = asking.filter((v) => unanswered(needs, v.needs as FixNeeds) === null);
  const answers = [...new Set(answered.map((v) => `${v.code} ${v.verdict}`))];
  const fix = mergedFix(pod, w, needs, answers, toYaml);
  const out = verdicts.map((v) => {
    if (!answered.includes(v)) return v;
    const rest = v.fixes.slice(1).filter((f) => !writesProxyConfig(f));
    const alt =
      v.verdict === 'drain-too-short' && v.evidence.exitOnZeroActiveConnections !== true
        ? [exitOnZeroAlternative(pod, w, needs, toYaml)]
        : [];
    return { ...v, fixes: [fix, ...alt, ...rest] };
  });
  return { verdicts: out, fix, needs };
}
