/**
 * The entries of an `istioctl bug-report` archive that `meshdx gather` writes, named as
 * istioctl names them (istio/istio tools/bug-report: pkg/bugreport, pkg/content, pkg/common;
 * ../shared/fixtures/bug_report/istioctl-bug-report-archive-structure.md): every entry under
 * `bug-report/`, a proxy's files named after the Envoy admin path they hold, istiod's after its
 * debug URL.
 */
import { podKey } from '../refs/pod-ref';
import { parseDurationMs } from '../timeline/time';

export const ARCHIVE_ROOT = 'bug-report';

/** A file of the cluster folder (`cluster/k8s-resources`, `cluster/events`...). */
export function clusterEntry(file: string): string {
  return `${ARCHIVE_ROOT}/cluster/${file}`;
}

/** A file of one proxy's folder (`proxies/<ns>/<pod>/<file>`). */
export function proxyEntry(namespace: string, pod: string, file: string): string {
  return `${ARCHIVE_ROOT}/proxies/${podKey(namespace, pod)}/${file}`;
}

/** A file of one istiod replica's folder (`istio/<ns>/<pod>/<file>`). */
export function istiodEntry(namespace: string, pod: string, file: string): string {
  return `${ARCHIVE_ROOT}/istio/${podKey(namespace, pod)}/${file}`;
}

/** An entry at the archive's top (`versions`, `bug-report.log`). */
export function topEntry(file: string): string {
  return `${ARCHIVE_ROOT}/${file}`;
}

/**
 * What a sidecar's, gateway's or waypoint's Envoy admin gives, by the archive file it is kept in:
 * the full config dump with EDS (the file name holds `?include_eds` literally), Envoy's text
 * /clusters, its Prometheus stats and server_info.
 */
export const PROXY_ADMIN_FILES: readonly { file: string; path: string }[] = [
  { file: 'config_dump?include_eds', path: '/config_dump?include_eds' },
  { file: 'clusters', path: '/clusters' },
  { file: 'stats/prometheus', path: '/stats/prometheus' },
  { file: 'server_info', path: '/server_info' },
];

/** A ztunnel pod's folder holds its admin's /config_dump only (ambient). */
export const ZTUNNEL_ADMIN_FILES: readonly { file: string; path: string }[] = [
  { file: 'config_dump', path: '/config_dump' },
];

/** The proxy container's log, with the previous container's appended when it restarted. */
export const PROXY_LOG_FILE = 'istio-proxy.log';

/** The separators istioctl writes around a restarted container's previous log. */
export const PREVIOUS_LOG_PRESENT =
  '========= Previous log present (appended at the end) =========';
export const PREVIOUS_LOG = '========= Previous log =========';

/** The current log, then the previous container's when there is one, as istioctl joins them. */
export function joinedProxyLog(current: string, previous: string | null): string {
  if (previous === null || previous.trim() === '') return current;
  return `${PREVIOUS_LOG_PRESENT}\n\n${current}\n\n${PREVIOUS_LOG}\n\n${previous}`;
}

/** The current log and the previous container's (null: none) of a joined istio-proxy.log. */
export function splitProxyLog(text: string): { current: string; previous: string | null } {
  if (!text.startsWith(PREVIOUS_LOG_PRESENT)) return { current: text, previous: null };
  const rest = text.slice(PREVIOUS_LOG_PRESENT.length).replace(/^\r?\n/, '');
  const at = rest.indexOf(PREVIOUS_LOG);
  if (at < 0) return { current: rest, previous: null };
  return {
    current: rest.slice(0, at),
    previous: rest.slice(at + PREVIOUS_LOG.length).replace(/^\r?\n/, ''),
  };
}

/** istiod's debug endpoints a bug-report keeps (pilot's :15014 `/debug/<name>`). */
export const ISTIOD_DEBUG_FILES: readonly string[] = [
  'debug/adsz',
  'debug/syncz',
  'debug/registryz',
  'debug/endpointz',
  'debug/endpointShardz',
  'debug/configz',
  'debug/resourcesz',
  'debug/authorizationz',
  'debug/push_status',
  'debug/inject',
  'debug/mesh',
  'debug/networkz',
  'debug/telemetryz',
  'debug/clusterz',
  'debug/instancesz',
  'debug/ambientz',
];

/**
 * istiod's own Prometheus metrics (pilot's :15014 `/metrics`), kept beside its debug folder as
 * `istio/<ns>/<pod>/metrics` (istioctl names the file after the URL it asked).
 */
export const ISTIOD_METRICS_FILE = 'metrics';

/** The Envoy config dump sections left out of an archive: the proxy's certificates and keys. */
export function isSecretsSection(type: unknown): boolean {
  return typeof type === 'string' && /\.SecretsConfigDump$/.test(type);
}

/**
 * `--since` as a window length in ms: a Go duration (`30m`, `2h`, `1h30m`, `90s`), at least
 * one second; anything else an error naming the accepted forms.
 */
export function parseSince(text: string): { ms: number } | { error: string } {
  const ms = /^\d+(\.\d+)?$/.test(text.trim()) ? null : parseDurationMs(text);
  if (ms === null || !Number.isFinite(ms))
    return {
      error: `--since ${JSON.stringify(text)} is not a duration: use a number with a unit, such as 30m, 2h or 1h30m`,
    };
  if (ms < 1000) return { error: `--since ${JSON.stringify(text)} is shorter than one second` };
  return { ms };
}
