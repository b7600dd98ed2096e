/**
 * Stable finding codes for the timeline domain (MDX01xx). Codes never change meaning; new
 * verdicts get new codes.
 */
import { defineCatalog } from '../findings/catalog';
import type { FindingCatalogEntry } from '../findings/types';
import type { Verdict } from './types';

export const TIMELINE = defineCatalog<Verdict>('timeline', {
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
