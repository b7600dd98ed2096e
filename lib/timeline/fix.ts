/**
 * Copyable fixes per verdict: the YAML to apply to the pod's workload and one line of why.
 * Pod-template patches are merge patches (`kubectl patch --type merge --patch-file`); an
 * existing proxy.istio.io/config annotation is kept and extended, never replaced.
 */
import { stringify } from 'yaml';
import type { FindingFix } from '../findings/types';
import type { Pod } from '../kube/types';
import { PROXY_CONFIG_ANNOTATION } from './mode';
import { parseProxyConfigText } from './proxyconfig';
import { parse as parseYaml } from 'yaml';
import type { Workload } from './types';

const TEMPLATED = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

function header(w: Workload): string {
  if (TEMPLATED.has(w.kind)) {
    return `# kubectl -n ${w.namespace} patch ${w.kind.toLowerCase()} ${w.name} --type merge --patch-file fix.yaml\n`;
  }
  return `# ${w.kind} ${w.namespace}/${w.name}: add this to its pod template (a bare pod must be recreated)\n`;
}

function templatePatch(w: Workload, template: Record<string, unknown>): string {
  const body = TEMPLATED.has(w.kind) ? { spec: { template } } : template;
  return header(w) + stringify(body, { lineWidth: 0 });
}

/** The pod's proxy.istio.io/config as an object, with `extra` merged in, as compact JSON. */
export function mergedProxyConfig(pod: Pod, extra: Record<string, unknown>): string {
  const raw = pod.metadata.annotations?.[PROXY_CONFIG_ANNOTATION];
  let base: Record<string, unknown> = {};
  if (raw !== undefined && !parseProxyConfigText(raw).error) {
    const v: unknown = parseYaml(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) base = v as Record<string, unknown>;
  }
  return JSON.stringify({ ...base, ...extra });
}

function annotationFix(pod: Pod, w: Workload, extra: Record<string, unknown>): string {
  return templatePatch(w, {
    metadata: { annotations: { [PROXY_CONFIG_ANNOTATION]: mergedProxyConfig(pod, extra) } },
  });
}

export function holdFix(pod: Pod, w: Workload): FindingFix {
  return {
    why: 'the injector puts istio-proxy first with a postStart `pilot-agent wait`, so the kubelet starts the app only once the proxy is ready',
    yaml: annotationFix(pod, w, { holdApplicationUntilProxyStarts: true }),
  };
}

export function meshHoldFix(): FindingFix {
  return {
    why: 'mesh-wide: every pod injected after this change is held until its proxy is ready',
    yaml:
      '# IstioOperator spec / Helm values (istiod), then restart the workloads\n' +
      stringify({ meshConfig: { defaultConfig: { holdApplicationUntilProxyStarts: true } } }),
  };
}

export function nativeFix(w: Workload): FindingFix {
  return {
    why: 'a native sidecar (Kubernetes 1.28+) is started before the app and stopped after it: no race at either end',
    yaml: templatePatch(w, {
      metadata: { annotations: { 'sidecar.istio.io/nativeSidecar': 'true' } },
    }),
  };
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

export function drainFix(pod: Pod, w: Workload, drainMs: number, graceS: number): FindingFix {
  const template: Record<string, unknown> = {
    metadata: {
      annotations: {
        [PROXY_CONFIG_ANNOTATION]: mergedProxyConfig(pod, {
          terminationDrainDuration: seconds(drainMs),
        }),
      },
    },
  };
  const neededGrace = Math.ceil(drainMs / 1000) + 5;
  if (neededGrace > graceS) template.spec = { terminationGracePeriodSeconds: neededGrace };
  return {
    why: `keep the proxy draining (${seconds(drainMs)}) until the app has finished, inside the grace period`,
    yaml: templatePatch(w, template),
  };
}

export function graceFix(w: Workload, neededS: number): FindingFix {
  return {
    why: `give preStop and shutdown ${neededS}s before SIGKILL`,
    yaml: templatePatch(w, { spec: { terminationGracePeriodSeconds: neededS } }),
  };
}
