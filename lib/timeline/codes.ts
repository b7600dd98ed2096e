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
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: 'Native sidecars come with ENABLE_NATIVE_SIDECARS (first in Istio 1.19.0), the sidecar.istio.io/nativeSidecar annotation (1.24.0) and the default auto mode, which needs kubelet 1.33+ on every node (1.27.0).',
    },
  },
  race: {
    code: 'MDX0101',
    severity: 'warning',
    title: 'App started before its sidecar was ready',
    description:
      'An app container started before istio-proxy was ready: its first outbound calls may fail (connection refused / 503) until the proxy has its configuration.',
    istio: {
      since: '1.0',
      why: 'A classic sidecar is not started before the app in any Istio release (holdApplicationUntilProxyStarts from 1.7, native sidecars from 1.19 are opt-ins).',
    },
  },
  'race-restart': {
    code: 'MDX0102',
    severity: 'error',
    title: 'App raced its sidecar and failed',
    description:
      'An app container started before istio-proxy was ready and its first run then failed (non-zero exit or restart within its first seconds): the classic startup race.',
    istio: {
      since: '1.0',
      why: 'A classic sidecar is not started before the app in any Istio release (holdApplicationUntilProxyStarts from 1.7, native sidecars from 1.19 are opt-ins).',
    },
  },
  'held-ok': {
    code: 'MDX0103',
    severity: 'info',
    title: 'App held until the proxy was ready',
    description:
      'holdApplicationUntilProxyStarts (or a wrapper that polls the proxy) kept the app from running before istio-proxy was ready.',
    istio: {
      since: '1.7',
      why: 'holdApplicationUntilProxyStarts (and the proxy.istio.io/config annotation that sets it per pod) is first in Istio 1.7.0.',
    },
  },
  'native-ok': {
    code: 'MDX0104',
    severity: 'info',
    title: 'Native sidecar: ordered start and stop',
    description:
      'istio-proxy runs as a native sidecar (initContainer with restartPolicy Always): the kubelet starts apps after it is started and stops it after them.',
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: "Native sidecars come with ENABLE_NATIVE_SIDECARS=true, first in Istio 1.19.0 (Kubernetes 1.28+), and are Istio's default (auto) from 1.27.0.",
    },
  },
  'native-unobserved': {
    code: 'MDX0109',
    severity: 'info',
    title: 'Native sidecar, start order not observed',
    description:
      'istio-proxy is a native sidecar, so the kubelet orders it before the app, but the pod status does not show the order (no container start times): judged from the spec only.',
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: "Native sidecars come with ENABLE_NATIVE_SIDECARS=true, first in Istio 1.19.0 (Kubernetes 1.28+), and are Istio's default (auto) from 1.27.0.",
    },
  },
  'native-not-ready': {
    code: 'MDX0110',
    severity: 'error',
    title: 'Native sidecar never became ready: the app is blocked',
    description:
      'Under native sidecars the kubelet starts the app only after istio-proxy passes its startupProbe; a proxy that never gets ready (no config from istiod, certificate, bad image) keeps every app container waiting in PodInitializing.',
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: "Native sidecars come with ENABLE_NATIVE_SIDECARS=true, first in Istio 1.19.0 (Kubernetes 1.28+), and are Istio's default (auto) from 1.27.0.",
    },
  },
  'native-stuck-terminating': {
    code: 'MDX0111',
    severity: 'error',
    title: 'Native sidecar keeps the pod terminating',
    description:
      'The pod is past its deletion deadline and its app containers have exited, but the native istio-proxy still runs: the pod hangs in Terminating (istio#51883) until the kubelet kills it.',
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: "Native sidecars come with ENABLE_NATIVE_SIDECARS=true, first in Istio 1.19.0 (Kubernetes 1.28+), and are Istio's default (auto) from 1.27.0. istio#51883 is closed with no Istio release named as fixing it.",
    },
  },
  'hold-redundant': {
    code: 'MDX0112',
    severity: 'info',
    title: 'holdApplicationUntilProxyStarts does nothing under native sidecars',
    description:
      'A native sidecar is started and ready before the app by the kubelet itself; the injector adds no postStart wait for it, so the hold setting is dead configuration.',
    istio: {
      since: '1.19',
      byDefault: '1.27',
      why: "Native sidecars come with ENABLE_NATIVE_SIDECARS=true, first in Istio 1.19.0 (Kubernetes 1.28+), and are Istio's default (auto) from 1.27.0. holdApplicationUntilProxyStarts is first in 1.7.0.",
    },
  },
  'classic-ok': {
    code: 'MDX0108',
    severity: 'info',
    title: 'Classic sidecar, no race seen this time',
    description:
      'istio-proxy is a plain container and nothing orders it before the app; this start did not race, but the next one may.',
    istio: {
      since: '1.0',
      why: 'A classic sidecar is not started before the app in any Istio release (holdApplicationUntilProxyStarts from 1.7, native sidecars from 1.19 are opt-ins).',
    },
  },
  'drain-too-short': {
    code: 'MDX0105',
    severity: 'warning',
    title: 'Proxy stops before the app has finished',
    description:
      'The proxy terminationDrainDuration is shorter than the time the app needs to finish (preStop, observed exit): in-flight and new calls fail with 503 during scale-down.',
    istio: { since: '1.1', why: "The proxy's terminationDrainDuration is first in Istio 1.1.0." },
  },
  'grace-exceeded': {
    code: 'MDX0106',
    severity: 'warning',
    title: 'Shutdown needs more than the grace period',
    description:
      'preStop plus the expected shutdown is longer than terminationGracePeriodSeconds, or a container was killed (exit 137) after deletion: work is cut off by SIGKILL.',
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: Kubernetes' grace period and SIGKILL, on any Istio.",
    },
  },
  'pod-restart': {
    code: 'MDX0114',
    severity: 'warning',
    title: 'App and proxy restarted together',
    description:
      'The app and istio-proxy ended within seconds of each other and started again: a node or container-runtime restart (exit 255, reason Unknown), an OOM of the pod, a new pod sandbox (the init containers ran again) or an eviction. Not a startup race: the start after it is judged as its own instance.',
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: a restart of the pod's containers together, on any Istio.",
    },
  },
  'app-crash': {
    code: 'MDX0115',
    severity: 'warning',
    title: 'The app crashed after its start',
    description:
      "An app container failed after its first seconds (non-zero exit or OOMKilled) while its proxy kept running: the app's own failure, not a race with the sidecar.",
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: the app's own failure, on any Istio.",
    },
  },
  'init-failed': {
    code: 'MDX0116',
    severity: 'error',
    title: 'An init container failed',
    description:
      'An init container (istio-init, or one of the app) exited non-zero or is in a crash loop: the pod cannot start its containers until it succeeds.',
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: an init container (istio-init or the app's) that fails, on any Istio.",
    },
  },
  'exit-at-shutdown': {
    code: 'MDX0117',
    severity: 'info',
    title: 'The app exited non-zero at shutdown',
    description:
      'An app container ended after the pod deletion started with a non-zero exit (143: SIGTERM not handled; 137: SIGKILL at the grace deadline). The exit belongs to the shutdown, not to a failed start.',
    istio: {
      since: '1.0',
      why: "Not tied to an Istio release: the app's exit at shutdown, on any Istio.",
    },
  },
  'native-drain-at-deletion': {
    code: 'MDX0118',
    severity: 'warning',
    title: 'Native sidecar drains at the deletion while the app serves',
    description:
      "Istio's injector gives a native istio-proxy the preStop `pilot-agent request POST drain`, and the kubelet runs a sidecar's preStop when the pod's termination starts (Kubernetes 1.29+): the proxy drains while the app still serves (istio#60649) and adds `connection: close` to the app's outbound requests (istio#51855). Raised where the pod's shutdown showed it: the app served after the drain began, or requests failed while it terminated.",
    istio: {
      since: '1.21',
      byDefault: '1.27',
      why: "The injector gives a native istio-proxy the preStop `pilot-agent request POST drain` since Istio 1.21.0 (injection-template.yaml); native sidecars are Istio's default from 1.27.0.",
    },
  },
  'ambient-gone-before-ztunnel': {
    code: 'MDX0119',
    severity: 'warning',
    title: 'Ambient pod gone before the ztunnels removed it',
    description:
      'Requests to an ambient pod failed while it terminated or after it was gone: the ztunnels still held the workload and sent to it (istio#58514). A preStop sleep keeps the pod serving until they have removed it.',
    istio: {
      since: '1.18',
      why: "Ambient's ztunnel (istio.io/dataplane-mode) is first in Istio 1.18.0 (GA in 1.24); the finding is made from the failures the pod's requests showed (istio#58514), on any ambient release.",
    },
  },
  unknown: {
    code: 'MDX0107',
    severity: 'info',
    title: 'Startup order cannot be judged',
    description:
      'The data needed to place the app start against the proxy ready moment is missing (status, timestamps); the evidence says what is missing.',
    istio: {
      since: '1.0',
      why: 'Not tied to an Istio release: what meshdx could read of the pod, on any Istio.',
    },
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
