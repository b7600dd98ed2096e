/** Detects the startup mode of a pod from its spec, annotations and the mesh config. */
import { sidecarScopes } from '../dataplane/proxy-container';
import type { Namespace, Pod } from '../kube/types';
import { AMBIENT_REDIRECTION_ANNOTATION, podDataplane } from '../dataplane/mode';
import {
  appContainers,
  appsBeforeProxy,
  findProxy,
  hasPostStartWait,
  isNativeSidecar,
  isWrapped,
  type ProxyLocation,
} from './containers';
import type { MeshSettings } from './meshconfig';
import {
  exitOnZeroEnv,
  minimumDrainEnvMs,
  parseProxyConfigText,
  proxyContainerSettings,
  type ProxySettings,
} from './proxyconfig';
import type { StartupMode } from './types';

export const PROXY_CONFIG_ANNOTATION = 'proxy.istio.io/config';

export interface ModeResult {
  mode: StartupMode;
  reasons: string[];
  notes: string[];
  proxy: ProxyLocation | null;
  /** Effective proxy settings: annotation > PROXY_CONFIG env / legacy env > mesh. */
  settings: ProxySettings;
  /** Where the drain duration came from. */
  drainSource: 'annotation' | 'proxy-env' | 'mesh' | 'default';
  /** True when the start order is held by a postStart `pilot-agent wait` the spec shows. */
  holdVisible: boolean;
  /**
   * Why a hold that is there (a postStart wait, or holdApplicationUntilProxyStarts in the
   * annotation or mesh config) does not hold this pod; null when there is none.
   */
  holdIgnored: string | null;
}

/** Merges the proxy settings in Istio's precedence order and remembers the drain source. */
export function effectiveSettings(
  pod: Pod,
  proxy: ProxyLocation | null,
  mesh: MeshSettings | undefined,
): { settings: ProxySettings; drainSource: ModeResult['drainSource']; notes: string[] } {
  const notes: string[] = [];
  const raw = pod.metadata.annotations?.[PROXY_CONFIG_ANNOTATION];
  let ann: ProxySettings = {};
  if (raw !== undefined) {
    const parsed = parseProxyConfigText(raw);
    if (parsed.error)
      notes.push(`annotation ${PROXY_CONFIG_ANNOTATION} unreadable: ${parsed.error}`);
    ann = parsed.settings;
  }
  const env = proxyContainerSettings(proxy?.container);
  notes.push(...env.errors);
  const settings: ProxySettings = {};
  const hold = ann.hold ?? env.settings.hold ?? mesh?.hold;
  if (hold !== undefined) settings.hold = hold;
  const exitOnZero =
    ann.exitOnZero ??
    exitOnZeroEnv(proxy?.container) ??
    env.settings.exitOnZero ??
    mesh?.exitOnZero;
  if (exitOnZero !== undefined) settings.exitOnZero = exitOnZero;
  const minDrain =
    ann.minDrainMs ??
    minimumDrainEnvMs(proxy?.container) ??
    env.settings.minDrainMs ??
    mesh?.minDrainMs;
  if (minDrain !== undefined) settings.minDrainMs = minDrain;
  let drainSource: ModeResult['drainSource'] = 'default';
  if (ann.drainMs !== undefined) [settings.drainMs, drainSource] = [ann.drainMs, 'annotation'];
  else if (env.settings.drainMs !== undefined) {
    [settings.drainMs, drainSource] = [env.settings.drainMs, 'proxy-env'];
  } else if (mesh?.drainMs !== undefined) [settings.drainMs, drainSource] = [mesh.drainMs, 'mesh'];
  return { settings, drainSource, notes };
}

function holdSource(pod: Pod): string {
  return pod.metadata.annotations?.[PROXY_CONFIG_ANNOTATION]?.includes('hold')
    ? `annotation ${PROXY_CONFIG_ANNOTATION}`
    : 'mesh defaultConfig / injected PROXY_CONFIG';
}

/**
 * Why a pod without any istio-proxy is in the ambient mesh, or null: the CNI agent marked it
 * captured (`ambient.istio.io/redirection: enabled`), or its own or (when known) its
 * namespace's `istio.io/dataplane-mode` label enrols it.
 */
export function ambientReason(pod: Pod, ns: Namespace | undefined): string | null {
  const dp = podDataplane(pod, ns);
  if (dp.redirection === 'enabled')
    return `annotation ${AMBIENT_REDIRECTION_ANNOTATION}: enabled (captured by ztunnel)`;
  return dp.mode === 'ambient' ? dp.why : null;
}

export function detectMode(pod: Pod, mesh?: MeshSettings, ns?: Namespace): ModeResult {
  const proxy = findProxy(pod);
  const eff = effectiveSettings(pod, proxy, mesh);
  const base = {
    proxy,
    settings: eff.settings,
    drainSource: eff.drainSource,
    notes: eff.notes,
    holdVisible: false,
    holdIgnored: null as string | null,
  };
  if (!proxy) {
    const ambient = ambientReason(pod, ns);
    if (ambient) return { ...base, mode: 'ambient', reasons: [ambient] };
    return { ...base, mode: 'none', reasons: ['no istio-proxy container'] };
  }
  if (!sidecarScopes(proxy.placement)) {
    return {
      ...base,
      mode: 'gateway',
      reasons: [`istio-proxy is the pod's own workload (a ${proxy.placement}), not a sidecar`],
    };
  }
  if (isNativeSidecar(proxy)) {
    return {
      ...base,
      mode: 'native',
      reasons: ['istio-proxy is an initContainer with restartPolicy: Always'],
    };
  }
  if (proxy.where === 'initContainers') {
    // A plain init container proxy never finishes: the pod would not start. Report it as classic.
    base.notes.push('istio-proxy is an initContainer without restartPolicy: Always');
  }
  // The kubelet starts `containers` in order and blocks only on the postStart hook of a
  // container that comes before the app: apps listed before istio-proxy are never held.
  const before = appsBeforeProxy(pod, proxy);
  const after = before.length ? ` after ${before.join(', ')}` : '';
  if (proxy.where === 'containers' && hasPostStartWait(proxy.container)) {
    if (before.length === 0) {
      return {
        ...base,
        holdVisible: true,
        mode: 'hold',
        reasons: ['istio-proxy has postStart pilot-agent wait and no app container before it'],
      };
    }
    base.holdIgnored = `istio-proxy has postStart pilot-agent wait but is placed${after}: the kubelet starts ${before.join(', ')} first, so the hook holds nothing`;
  } else if (eff.settings.hold === true) {
    const src = holdSource(pod);
    if (before.length > 0) {
      // The spec wins: the injector would have put the proxy first, this pod was not injected so.
      base.holdIgnored = `holdApplicationUntilProxyStarts: true from ${src}, but istio-proxy is placed${after} (the pod was injected without it): nothing holds the app`;
    } else {
      base.notes.push(
        'holdApplicationUntilProxyStarts is set but istio-proxy has no postStart wait: the setting applies at injection, restart the workload',
      );
      return {
        ...base,
        mode: 'hold',
        reasons: [`holdApplicationUntilProxyStarts: true from ${src}`],
      };
    }
  }
  if (base.holdIgnored) base.notes.push(base.holdIgnored);
  const apps = appContainers(pod);
  if (apps.length > 0 && apps.every(isWrapped)) {
    return {
      ...base,
      mode: 'wrapper',
      reasons: ['every app command polls the proxy before starting'],
    };
  }
  return {
    ...base,
    mode: 'classic',
    reasons: [
      base.holdIgnored ?? 'istio-proxy is a plain container: nothing orders it before the app',
    ],
  };
}
