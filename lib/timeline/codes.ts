/**
 * Stable finding codes for the timeline domain (MDX01xx). Codes never change meaning; new
 * verdicts get new codes.
 */
import { defineCatalog } from '../findings/catalog';
import type { FindingCatalogEntry } from '../findings/types';
import type { Verdict } from './types';

export const TIMELINE = defineCatalog<Verdict | 'mode-flip'>('timeline', {
  'mode-flip': {
    code: 'MDX0113',
    severity: 'warning',
    title: "The workload's next restart changes its sidecar mode",
    description:
      "The injector decides native or classic sidecar per pod at creation (ENABLE_NATIVE_SIDECARS, the nativeSidecar annotation, every node's kubelet >= 1.33 in auto mode). The pods run one mode, a pod created now gets the other: start order, shutdown and Job completion change at the next rollout, eviction or scale-up.",
  },
  race: {
    code: 'MDX0101',
    severity: 'warning',
    title: 'App started before its sidecar was ready',
    description:
      'An app container started before istio-proxy was ready: its first outbound calls may fail (connection refused / 503) until the proxy has its configuration.',
  },
  'race-restart': {
    code: 'MDX0102',
    severity: 'error',
    title: 'App raced its sidecar and failed',
    description:
      'An app container started before istio-proxy was ready and its first run then failed (non-zero exit or restart within its first seconds): the classic startup race.',
  },
  'held-ok': {
    code: 'MDX0103',
    severity: 'info',
    title: 'App held until the proxy was ready',
    description:
      'holdApplicationUntilProxyStarts (or a wrapper that polls the proxy) kept the app from running before istio-proxy was ready.',
  },
  'native-ok': {
    code: 'MDX0104',
    severity: 'info',
    title: 'Native sidecar: ordered start and stop',
    description:
      'istio-proxy runs as a native sidecar (initContainer with restartPolicy Always): the kubelet starts apps after it is started and stops it after them.',
  },
  'native-unobserved': {
    code: 'MDX0109',
    severity: 'info',
    title: 'Native sidecar, start order not observed',
    description:
      'istio-proxy is a native sidecar, so the kubelet orders it before the app, but the pod status does not show the order (no container start times): judged from the spec only.',
  },
  'native-not-ready': {
    code: 'MDX0110',
    severity: 'error',
    title: 'Native sidecar never became ready: the app is blocked',
    description:
      'Under native sidecars the kubelet starts the app only after istio-proxy passes its startupProbe; a proxy that never gets ready (no config from istiod, certificate, bad image) keeps every app container waiting in PodInitializing.',
  },
  'native-stuck-terminating': {
    code: 'MDX0111',
    severity: 'error',
    title: 'Native sidecar keeps the pod terminating',
    description:
      'The pod is past its deletion deadline and its app containers have exited, but the native istio-proxy still runs: the pod hangs in Terminating (istio#51883) until the kubelet kills it.',
  },
  'hold-redundant': {
    code: 'MDX0112',
    severity: 'info',
    title: 'holdApplicationUntilProxyStarts does nothing under native sidecars',
    description:
      'A native sidecar is started and ready before the app by the kubelet itself; the injector adds no postStart wait for it, so the hold setting is dead configuration.',
  },
  'classic-ok': {
    code: 'MDX0108',
    severity: 'info',
    title: 'Classic sidecar, no race seen this time',
    description:
      'istio-proxy is a plain container and nothing orders it before the app; this start did not race, but the next one may.',
  },
  'drain-too-short': {
    code: 'MDX0105',
    severity: 'warning',
    title: 'Proxy stops before the app has finished',
    description:
      'The proxy terminationDrainDuration is shorter than the time the app needs to finish (preStop, observed exit): in-flight and new calls fail with 503 during scale-down.',
  },
  'grace-exceeded': {
    code: 'MDX0106',
    severity: 'warning',
    title: 'Shutdown needs more than the grace period',
    description:
      'preStop plus the expected shutdown is longer than terminationGracePeriodSeconds, or a container was killed (exit 137) after deletion: work is cut off by SIGKILL.',
  },
  'pod-restart': {
    code: 'MDX0114',
    severity: 'warning',
    title: 'App and proxy restarted together',
    description:
      'The app and istio-proxy ended within seconds of each other and started again: a node or container-runtime restart (exit 255, reason Unknown), an OOM of the pod, a new pod sandbox (the init containers ran again) or an eviction. Not a startup race: the start after it is judged as its own instance.',
  },
  'app-crash': {
    code: 'MDX0115',
    severity: 'warning',
    title: 'The app crashed after its start',
    description:
      "An app container failed after its first seconds (non-zero exit or OOMKilled) while its proxy kept running: the app's own failure, not a race with the sidecar.",
  },
  'init-failed': {
    code: 'MDX0116',
    severity: 'error',
    title: 'An init container failed',
    description:
      'An init container (istio-init, or one of the app) exited non-zero or is in a crash loop: the pod cannot start its containers until it succeeds.',
  },
  'exit-at-shutdown': {
    code: 'MDX0117',
    severity: 'info',
    title: 'The app exited non-zero at shutdown',
    description:
      'An app container ended after the pod deletion started with a non-zero exit (143: SIGTERM not handled; 137: SIGKILL at the grace deadline). The exit belongs to the shutdown, not to a failed start.',
  },
  'native-drain-at-deletion': {
    code: 'MDX0118',
    severity: 'warning',
    title: 'Native sidecar drains at the deletion while the app serves',
    description:
      "Istio's injector gives a native istio-proxy the preStop `pilot-agent request POST drain`, and the kubelet runs a sidecar's preStop when the pod's termination starts (Kubernetes 1.29+): the proxy drains while the app still serves (istio#60649) and adds `connection: close` to the app's outbound requests (istio#51855). Raised where the pod's shutdown showed it: the app served after the drain began, or requests failed while it terminated.",
  },
  'ambient-gone-before-ztunnel': {
    code: 'MDX0119',
    severity: 'warning',
    title: 'Ambient pod gone before the ztunnels removed it',
    description:
      'Requests to an ambient pod failed while it terminated or after it was gone: the ztunnels still held the workload and sent to it (istio#58514). A preStop sleep keeps the pod serving until they have removed it.',
  },
  unknown: {
    code: 'MDX0107',
    severity: 'info',
    title: 'Startup order cannot be judged',
    description:
      'The data needed to place the app start against the proxy ready moment is missing (status, timestamps); the evidence says what is missing.',
  },
});

/** Entry by verdict. */
export const TIMELINE_CATALOG = TIMELINE.byKey;

export function codeOf(verdict: Verdict): string {
  return TIMELINE.code[verdict];
}

export function timelineCatalog(): FindingCatalogEntry[] {
  return [...TIMELINE.entries];
}
