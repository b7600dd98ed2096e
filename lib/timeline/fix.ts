/**
 * Copyable fixes per verdict: the YAML to apply to the pod's workload and one line of why.
 * Every pod-template change is a merge patch on the workload's pod template
 * (`kubectl patch --type merge --patch-file`), written with the `yaml` package so that every
 * value parses back; an existing proxy.istio.io/config annotation is deep-merged (nested
 * settings such as proxyMetadata are kept), never replaced. What kubectl can do differs by
 * owner kind: Deployments, StatefulSets and DaemonSets roll out a patched template; a bare
 * ReplicaSet or pod must have its pods recreated; a Job's template is immutable, so the fix
 * goes to the next Job (the CronJob's jobTemplate, or the manifest).
 */
import { stringify } from 'yaml';
import type { FindingFix } from '../findings/types';
import type { Pod } from '../kube/types';
import { PROXY_CONFIG_ANNOTATION } from './mode';
import { parseJsonFirst, parseProxyConfigText } from './proxyconfig';
import type { Workload } from './types';
import { isJsonObject } from '../json-object';
import { workloadText } from '../refs/workload-ref';

/** Kinds whose controller replaces the pods when the pod template changes. */
const ROLLING: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

type Json = Record<string, unknown>;

/** Recursive merge: mappings are merged key by key, anything else in `extra` replaces. */
export function deepMerge(base: Json, extra: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const b = out[k];
    out[k] = isJsonObject(b) && isJsonObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

/** A CronJob's Jobs are named `<cronjob>-<scheduled minute>`: the likely CronJob name. */
function cronJobOf(jobName: string): string | null {
  const m = /^(.+)-\d{8,}$/.exec(jobName);
  return m ? (m[1] as string) : null;
}

/** Writes a fix body as YAML (the `yaml` package, so that every value parses back). */
export type ToYaml = (body: unknown) => string;

function yamlText(body: unknown): string {
  return stringify(body, { lineWidth: 0 });
}

/**
 * A ToYaml that remembers what it wrote, for one analysis of many pods: the pods of one
 * workload get the same fix, and writing YAML costs far more than looking it up. Holds at most
 * `max` texts (then starts again).
 */
export function memoYaml(max = 5_000): ToYaml {
  const texts = new Map<string, string>();
  return (body) => {
    const key = JSON.stringify(body);
    const hit = texts.get(key);
    if (hit !== undefined) return hit;
    if (texts.size >= max) texts.clear();
    const text = yamlText(body);
    texts.set(key, text);
    return text;
  };
}

/** The merge patch for the workload that owns the pod, with how to apply it. */
export function templatePatch(
  w: Workload,
  template: Json,
  toYaml: ToYaml = yamlText,
  /** strategic: lists of containers are merged by name (a merge patch would replace them). */
  type: 'merge' | 'strategic' = 'merge',
): string {
  const ns = w.namespace;
  if (ROLLING.has(w.kind)) {
    return (
      `# kubectl -n ${ns} patch ${w.kind.toLowerCase()} ${w.name} --type ${type} --patch-file fix.yaml\n` +
      `# (the ${w.kind} rolls its pods out with the new template)\n` +
      toYaml({ spec: { template } })
    );
  }
  if (w.kind === 'ReplicaSet') {
    return (
      `# kubectl -n ${ns} patch replicaset ${w.name} --type ${type} --patch-file fix.yaml\n` +
      '# a ReplicaSet does not replace running pods (kubectl rollout restart does not apply to it):\n' +
      `# delete its pods so that it recreates them with the new template\n` +
      toYaml({ spec: { template } })
    );
  }
  if (w.kind === 'Job' || w.kind === 'CronJob') {
    const cron = w.kind === 'CronJob' ? w.name : cronJobOf(w.name);
    const target = cron
      ? `# kubectl -n ${ns} patch cronjob ${cron} --type ${type} --patch-file fix.yaml\n`
      : '';
    return (
      `# ${workloadText(w)}: a Job's pod template cannot be changed, the fix applies to the next Job:\n` +
      '# put it in the Job manifest, or patch the CronJob that creates the Jobs\n' +
      target +
      toYaml({ spec: { jobTemplate: { spec: { template } } } })
    );
  }
  return (
    `# ${workloadText(w)}: a pod cannot be patched in place: add this to the pod template\n` +
    '# (or manifest) that creates it, then recreate the pod\n' +
    toYaml(template)
  );
}

/** How to restart the workload's pods so that injection runs again, per owner kind. */
export function restartFix(w: Workload, why: string): FindingFix {
  const ns = w.namespace;
  let yaml: string;
  if (ROLLING.has(w.kind)) {
    yaml = `kubectl -n ${ns} rollout restart ${w.kind.toLowerCase()} ${w.name}\n`;
  } else if (w.kind === 'ReplicaSet') {
    const labels = `kubectl -n ${ns} get replicaset ${w.name} -o go-template='{{range $k, $v := .spec.selector.matchLabels}}{{$k}}={{$v}},{{end}}'`;
    yaml = `# kubectl rollout restart does not apply to a bare ReplicaSet: delete its pods, it recreates them\nkubectl -n ${ns} delete pods -l "$(${labels} | sed 's/,$//')"\n`;
  } else if (w.kind === 'Job' || w.kind === 'CronJob') {
    yaml = `# ${workloadText(w)}: running Job pods are not restarted; the next Job's pods are injected anew\n`;
  } else {
    yaml = `# ${workloadText(w)}: recreate the pod (delete it and apply its manifest again)\n`;
  }
  return { why, yaml };
}

/** The pod's proxy.istio.io/config as an object (empty when absent or unreadable). */
function existingProxyConfig(pod: Pod): { config: Json; unreadable: boolean } {
  const raw = pod.metadata.annotations?.[PROXY_CONFIG_ANNOTATION];
  if (raw === undefined) return { config: {}, unreadable: false };
  if (parseProxyConfigText(raw).error) return { config: {}, unreadable: true };
  const v: unknown = parseJsonFirst(raw);
  return { config: isJsonObject(v) ? v : {}, unreadable: v !== null && !isJsonObject(v) };
}

/** The comment a patch starts with when the pod's proxy.istio.io/config cannot be read. */
export function proxyConfigLostNote(pod: Pod): string {
  return existingProxyConfig(pod).unreadable
    ? `# the pod's ${PROXY_CONFIG_ANNOTATION} could not be read: this value replaces it\n`
    : '';
}

/** The pod's proxy.istio.io/config deep-merged with `extra`, as compact JSON. */
export function mergedProxyConfig(pod: Pod, extra: Json): string {
  return JSON.stringify(deepMerge(existingProxyConfig(pod).config, extra));
}

function annotationFix(
  pod: Pod,
  w: Workload,
  extra: Json,
  spec: Json | undefined,
  toYaml: ToYaml,
): string {
  const template: Json = {
    metadata: { annotations: { [PROXY_CONFIG_ANNOTATION]: mergedProxyConfig(pod, extra) } },
  };
  if (spec) template.spec = spec;
  return proxyConfigLostNote(pod) + templatePatch(w, template, toYaml);
}

export function holdFix(pod: Pod, w: Workload, toYaml: ToYaml = yamlText): FindingFix {
  return {
    why: 'the injector puts istio-proxy first with a postStart `pilot-agent wait`, so the kubelet starts the app only once the proxy is ready',
    yaml: annotationFix(pod, w, { holdApplicationUntilProxyStarts: true }, undefined, toYaml),
  };
}

const MESH_HOLD_YAML =
  '# IstioOperator spec / Helm values (istiod), then restart the workloads\n' +
  stringify({ meshConfig: { defaultConfig: { holdApplicationUntilProxyStarts: true } } });

export function meshHoldFix(): FindingFix {
  return {
    why: 'mesh-wide: every pod injected after this change is held until its proxy is ready',
    yaml: MESH_HOLD_YAML,
  };
}

export function nativeFix(w: Workload, toYaml: ToYaml = yamlText): FindingFix {
  return {
    why: 'a native sidecar (Kubernetes 1.28+) is started before the app and stopped after it: no race at either end',
    yaml: templatePatch(
      w,
      { metadata: { annotations: { 'sidecar.istio.io/nativeSidecar': 'true' } } },
      toYaml,
    ),
  };
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

export function drainFix(
  pod: Pod,
  w: Workload,
  drainMs: number,
  graceS: number,
  toYaml: ToYaml = yamlText,
): FindingFix {
  const neededGrace = Math.ceil(drainMs / 1000) + 5;
  return {
    why: `keep the proxy draining (${seconds(drainMs)}) until the app has finished, inside the grace period`,
    yaml: annotationFix(
      pod,
      w,
      { terminationDrainDuration: seconds(drainMs) },
      neededGrace > graceS ? { terminationGracePeriodSeconds: neededGrace } : undefined,
      toYaml,
    ),
  };
}

export function exitOnZeroFix(pod: Pod, w: Workload, toYaml: ToYaml = yamlText): FindingFix {
  return {
    why: 'or let the proxy drain until the app has closed its connections (then MINIMUM_DRAIN_DURATION applies)',
    yaml: annotationFix(
      pod,
      w,
      { proxyMetadata: { EXIT_ON_ZERO_ACTIVE_CONNECTIONS: 'true' } },
      undefined,
      toYaml,
    ),
  };
}

export function graceFix(w: Workload, neededS: number, toYaml: ToYaml = yamlText): FindingFix {
  return {
    why: `give preStop and shutdown ${neededS}s before SIGKILL`,
    yaml: templatePatch(w, { spec: { terminationGracePeriodSeconds: neededS } }, toYaml),
  };
}
