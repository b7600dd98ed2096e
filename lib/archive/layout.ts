/**
 * Where things are in an `istioctl bug-report` archive (tools/bug-report/pkg/archive: a tar of
 * `bug-report/` with `cluster/`, `analyze/`, `istio/<ns>/<istiod>/`, `proxies/<ns>/<pod>/`,
 * `operator/`, `cni/`; each file named after the command or admin path it holds). The entries
 * start with `bug-report/` as istioctl writes them; an archive repacked from the unpacked folder
 * (or one made with `--dir`) may have another first folder or none: the root is the folder
 * under which these names are found.
 *
 * One description for both sides: the reader (archiveLayout, what `meshdx open` and the CLI
 * find in any archive) and the writer (the entry names `meshdx gather` writes, under
 * `bug-report/` as istioctl does; istio/istio tools/bug-report pkg/bugreport, pkg/content,
 * pkg/common; ../shared/fixtures/bug_report/istioctl-bug-report-archive-structure.md).
 */
import { podKey } from '../refs/pod-ref';
import type { ArchiveEntry } from './contents';

/**
 * A path in the archive's layout from its parts (`archivePath('proxies', ns, pod, 'clusters')`):
 * the folder names istioctl writes, not a reference key.
 */
export function archivePath(...parts: string[]): string {
  return parts.join('/');
}

export const TOP_LEVEL = [
  'bug-report.log',
  'versions',
  'cluster',
  'analyze',
  'istio',
  'proxies',
  'operator',
  'cni',
];

/**
 * The cluster's events as the API served them (a List YAML, with their exact times), beside
 * istioctl's `cluster/events` table (ages, to the second at best): what `meshdx gather` adds to
 * its `meshdx/` folder, read instead of the table where it is there.
 */
export const GATHERED_EVENTS_FILE = 'meshdx/events.yaml';

/** A sidecar's config dump file: the name holds `?include_eds` literally (with endpoints). */
export const CONFIG_DUMP_WITH_EDS = 'config_dump?include_eds';
/** The proxy container's log, with the previous container's appended when it restarted. */
export const PROXY_LOG_FILE = 'istio-proxy.log';
/** istiod's discovery container log in its folder. */
export const ISTIOD_LOG_FILE = 'discovery.log';

/**
 * istiod's own Prometheus metrics (pilot's :15014 `/metrics`), kept beside its debug folder as
 * `istio/<ns>/<pod>/metrics` (istioctl names the file after the URL it asked).
 */
export const ISTIOD_METRICS_FILE = 'metrics';

/** The files of a proxy's folder, by what meshdx reads them for. */
export type ProxyFileKind =
  | 'configDump'
  | 'clusters'
  | 'stats'
  | 'log'
  | 'serverInfo'
  | 'listeners'
  | 'certs'
  | 'memory'
  | 'runtime'
  | 'netstat';

const PROXY_FILES: Record<string, ProxyFileKind> = {
  [CONFIG_DUMP_WITH_EDS]: 'configDump',
  config_dump: 'configDump',
  clusters: 'clusters',
  'stats/prometheus': 'stats',
  [PROXY_LOG_FILE]: 'log',
  server_info: 'serverInfo',
  listeners: 'listeners',
  certs: 'certs',
  memory: 'memory',
  runtime: 'runtime',
  netstat: 'netstat',
};

export interface ArchiveProxy {
  namespace: string;
  pod: string;
  /** Entry names (relative to the archive's root) of the files this proxy has. */
  files: Partial<Record<ProxyFileKind, string>>;
  /** Whether the config dump is `config_dump?include_eds` (with endpoints), as sidecars' are; ztunnel's is `config_dump`. */
  edsIncluded: boolean;
}

export interface ArchiveIstiod {
  namespace: string;
  pod: string;
  /** istiod's debug endpoints by name (`syncz`, `endpointShardz`, `push_status`, ...). */
  debug: Record<string, string>;
  log: string | null;
  metrics: string | null;
}

export interface ArchiveLayout {
  /** The folder the layout's names are under (`bug-report/`, or '' when they are at the top). */
  root: string;
  cluster: Record<string, string>;
  analyze: string[];
  proxies: ArchiveProxy[];
  istiods: ArchiveIstiod[];
  bugReportLog: string | null;
  versions: string | null;
  /** Entries under the root that no part of the layout names (kept, listed, not read). */
  other: string[];
}

/** The root folder of the layout: the prefix under which most entries have a layout name. */
export function layoutRoot(entries: ArchiveEntry[]): string {
  const votes = new Map<string, number>();
  for (const e of entries) {
    const parts = e.name.split('/');
    for (let i = 0; i < Math.min(parts.length - 1, 3); i++) {
      if (TOP_LEVEL.includes(parts[i] ?? '')) {
        const root = parts
          .slice(0, i)
          .map((p) => `${p}/`)
          .join('');
        votes.set(root, (votes.get(root) ?? 0) + 1);
        break;
      }
    }
    if (parts.length === 1 && TOP_LEVEL.includes(parts[0] ?? ''))
      votes.set('', (votes.get('') ?? 0) + 1);
  }
  let best = '';
  let most = -1;
  for (const [root, n] of votes)
    if (n > most || (n === most && root.length < best.length)) [best, most] = [root, n];
  return best;
}

export function archiveLayout(entries: ArchiveEntry[]): ArchiveLayout {
  const root = layoutRoot(entries);
  const layout: ArchiveLayout = {
    root,
    cluster: {},
    analyze: [],
    proxies: [],
    istiods: [],
    bugReportLog: null,
    versions: null,
    other: [],
  };
  const proxies = new Map<string, ArchiveProxy>();
  const istiods = new Map<string, ArchiveIstiod>();
  for (const e of entries) {
    if (!e.name.startsWith(root)) continue;
    const rel = e.name.slice(root.length);
    const parts = rel.split('/');
    const [top, a, b] = parts;
    if (rel === 'bug-report.log') layout.bugReportLog = rel;
    else if (rel === 'versions') layout.versions = rel;
    else if (top === 'cluster' && parts.length === 2 && a) layout.cluster[a] = rel;
    else if (top === 'analyze' && parts.length >= 2) layout.analyze.push(rel);
    else if (top === 'proxies' && a && b && parts.length >= 4) {
      const file = parts.slice(3).join('/');
      const key = JSON.stringify([a, b]);
      const p = proxies.get(key) ?? { namespace: a, pod: b, files: {}, edsIncluded: false };
      proxies.set(key, p);
      const kind = PROXY_FILES[file];
      // `config_dump?include_eds` wins over a plain `config_dump` when a folder has both
      if (kind === 'configDump') {
        if (file === CONFIG_DUMP_WITH_EDS || !p.files.configDump) {
          p.files.configDump = rel;
          p.edsIncluded = file === CONFIG_DUMP_WITH_EDS;
        }
      } else if (kind) p.files[kind] = rel;
      else layout.other.push(rel);
    } else if (top === 'istio' && a && b && parts.length >= 4) {
      const key = JSON.stringify([a, b]);
      const d = istiods.get(key) ?? { namespace: a, pod: b, debug: {}, log: null, metrics: null };
      istiods.set(key, d);
      const file = parts.slice(3).join('/');
      if (parts[3] === 'debug' && parts.length === 5 && parts[4]) d.debug[parts[4]] = rel;
      else if (file === ISTIOD_LOG_FILE) d.log = rel;
      else if (file === ISTIOD_METRICS_FILE) d.metrics = rel;
      else layout.other.push(rel);
    } else layout.other.push(rel);
  }
  layout.proxies = [...proxies.values()];
  layout.istiods = [...istiods.values()];
  return layout;
}

/* What `meshdx gather` writes, named as istioctl names it. */

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
  { file: CONFIG_DUMP_WITH_EDS, path: `/${CONFIG_DUMP_WITH_EDS}` },
  { file: 'clusters', path: '/clusters' },
  { file: 'stats/prometheus', path: '/stats/prometheus' },
  { file: 'server_info', path: '/server_info' },
];

/** A ztunnel pod's folder holds its admin's /config_dump only (ambient). */
export const ZTUNNEL_ADMIN_FILES: readonly { file: string; path: string }[] = [
  { file: 'config_dump', path: '/config_dump' },
];

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

/** The Envoy config dump sections left out of an archive: the proxy's certificates and keys. */
export function isSecretsSection(type: unknown): boolean {
  return typeof type === 'string' && /\.SecretsConfigDump$/.test(type);
}
