import type { KubeEvent, KubeObject } from '../kube/types';
import type { ParseProblem } from '../parse-problem';
import type { ArchiveContents, ArchiveEntry, ArchiveProblem } from './contents';
import { parseEventsTable } from './events-table';
import { readArchiveFolder, type ArchiveFs } from './folder';
import {
  archiveLayout,
  archivePath,
  GATHERED_EVENTS_FILE,
  type ArchiveIstiod,
  type ArchiveLayout,
  type ArchiveProxy,
} from './layout';
import type { ArchiveLimits } from './limits';
import { collectArchiveObjects } from './resources';
import { readTarGz } from './tar';

/** What the archive lacks that a view would show: unknown, with this reason, never zero. */
export interface ArchiveMissing {
  /** The part, as a path in istioctl's layout or a named piece (`proxies/default/reviews-v1-x/clusters`). */
  part: string;
  reason: string;
}

export interface ArchiveCapture {
  /** When the archive was made, as far as it says; null when it does not. */
  time: Date | null;
  /** How that time was found, as a sentence. */
  how: string;
}

export interface ArchiveIndex {
  /** The file or folder's own name (never its path on this machine). */
  name: string;
  format: ArchiveContents['format'];
  /** Every entry read (names relative to the archive, not its layout root). */
  entries: ArchiveEntry[];
  /** Entries skipped or refused, and a cut archive, each named. */
  problems: ArchiveProblem[];
  layout: ArchiveLayout;
  /** The Kubernetes and Istio objects of the cluster files (pods, services, EndpointSlices, CRs...). */
  objects: KubeObject[];
  /** The events of `cluster/events`, or null when the archive has no events table. */
  events: KubeEvent[] | null;
  /** Problems met reading the cluster files and the events table. */
  parseProblems: (ParseProblem & { entry: string })[];
  proxies: ArchiveProxy[];
  istiods: ArchiveIstiod[];
  capture: ArchiveCapture;
  missing: ArchiveMissing[];
  /** An entry's bytes by its name relative to the layout root (`proxies/ns/pod/clusters`). */
  read(rel: string): Promise<Buffer>;
}

/** The cluster files whose YAML holds objects. */
const OBJECT_FILES = ['k8s-resources', 'k8s-cluster-resources', 'crs', 'nodes', 'pods'];

/** What a part's absence means, by istioctl's flags (tools/bug-report/pkg/config). */
const CLUSTER_REASONS: Record<string, string> = {
  'k8s-resources':
    'not in the archive: istioctl bug-report --skip-cluster-dump leaves it out (as does a failed `kubectl get`); pods, services and EndpointSlices of the application namespaces are unknown',
  events:
    'not in the archive, nor the cluster dump it is part of (--skip-cluster-dump): events are unknown',
  crs: 'not in the archive, nor the cluster dump it is part of (--skip-cluster-dump): Istio resources are unknown',
};

function newestObjectTime(objects: KubeObject[]): number | null {
  let newest: number | null = null;
  const see = (v: unknown): void => {
    if (typeof v !== 'string') return;
    const t = Date.parse(v);
    if (!Number.isNaN(t) && (newest === null || t > newest)) newest = t;
  };
  for (const o of objects) {
    see(o.metadata.creationTimestamp);
    const status = (o as { status?: Record<string, unknown> }).status;
    if (status && typeof status === 'object') {
      for (const c of Array.isArray(status.conditions) ? status.conditions : [])
        see((c as { lastTransitionTime?: unknown }).lastTransitionTime);
      for (const c of Array.isArray(status.containerStatuses) ? status.containerStatuses : []) {
        const st = (c as { state?: Record<string, { startedAt?: unknown; finishedAt?: unknown }> })
          .state;
        for (const s of Object.values(st ?? {})) {
          see(s?.startedAt);
          see(s?.finishedAt);
        }
      }
    }
  }
  return newest;
}

/** How far a node's clock may run ahead of the machine that wrote the archive's files. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

function captureOf(entries: ArchiveEntry[], objects: KubeObject[]): ArchiveCapture {
  let newest: number | null = null;
  for (const e of entries) {
    const t = e.mtime?.getTime();
    if (t !== undefined && (newest === null || t > newest)) newest = t;
  }
  const fromObjects = newestObjectTime(objects);
  // an object's time a little past the files' (a node's clock ahead of the capturing machine's)
  // does not make the file times wrong; only one far past them does (an archive repacked with
  // fixed file times, as reproducible tars have)
  if (newest !== null && (fromObjects === null || newest + CLOCK_SKEW_MS >= fromObjects))
    return {
      time: new Date(newest),
      how: 'the newest file time in the archive (istioctl writes each file as it gathers it)',
    };
  if (fromObjects !== null)
    return {
      time: new Date(fromObjects),
      how:
        newest === null
          ? 'the newest timestamp in the archive’s objects (its files carry no times): it was made at or after it'
          : 'the newest timestamp in the archive’s objects, which is later than its file times (the files were re-written after)',
    };
  return {
    time: null,
    how: 'unknown: the archive has neither file times nor timestamps in its objects',
  };
}

function hasProxyContainer(o: KubeObject): boolean {
  const spec = (o as { spec?: { containers?: unknown; initContainers?: unknown } }).spec;
  const names = [spec?.containers, spec?.initContainers]
    .flatMap((l) => (Array.isArray(l) ? l : []))
    .map((c) => (c as { name?: unknown }).name);
  return names.includes('istio-proxy');
}

/** Builds the typed index of an archive's contents (the layout, the objects, the events, what is missing). */
export async function indexArchive(contents: ArchiveContents, name: string): Promise<ArchiveIndex> {
  const layout = archiveLayout(contents.entries);
  const read = (rel: string): Promise<Buffer> => contents.read(layout.root + rel);
  const parseProblems: ArchiveIndex['parseProblems'] = [];
  const objectFiles: { entry: string; text: string }[] = [];
  for (const f of OBJECT_FILES) {
    const rel = layout.cluster[f];
    if (rel) objectFiles.push({ entry: rel, text: (await read(rel)).toString('utf8') });
  }
  const collected = collectArchiveObjects(objectFiles);
  parseProblems.push(...collected.problems);
  const capture = captureOf(contents.entries, collected.objects);
  let events: KubeEvent[] | null = null;
  const eventsRel = layout.cluster.events;
  if (eventsRel) {
    const table = parseEventsTable((await read(eventsRel)).toString('utf8'), capture.time);
    events = table.events;
    parseProblems.push(...table.problems.map((p) => ({ ...p, entry: eventsRel })));
  }
  // a gathered archive's events with their exact times: the table's ages are rounded (a pod's
  // probe failures minutes ago are to the minute), the times the views line them up by are not
  if (layout.other.includes(GATHERED_EVENTS_FILE)) {
    const exact = collectArchiveObjects([
      { entry: GATHERED_EVENTS_FILE, text: (await read(GATHERED_EVENTS_FILE)).toString('utf8') },
    ]);
    if (exact.problems.length === 0)
      events = exact.objects.filter((o): o is KubeEvent => o.kind === 'Event');
    else parseProblems.push(...exact.problems);
  }
  const missing: ArchiveMissing[] = [];
  // istioctl writes no file for an empty answer: with the cluster dump there (k8s-resources), a
  // missing `events` or `crs` is a cluster with none; without it, they are unknown
  const dumped = layout.cluster['k8s-resources'] !== undefined;
  if (dumped && !eventsRel) events = [];
  for (const [part, reason] of Object.entries(CLUSTER_REASONS))
    if (!layout.cluster[part] && !(dumped && part !== 'k8s-resources'))
      missing.push({ part: `cluster/${part}`, reason });
  if (layout.analyze.length === 0)
    missing.push({
      part: 'analyze/',
      reason:
        'not in the archive: istioctl writes no file when `istioctl analyze` printed nothing or failed; its findings are unknown',
    });
  if (layout.istiods.length === 0)
    missing.push({
      part: 'istio/',
      reason:
        'no istiod in the archive: its debug endpoints (syncz, endpointShardz, push_status) are unknown',
    });
  for (const d of layout.istiods)
    for (const dbg of ['syncz', 'endpointShardz', 'push_status'])
      if (!d.debug[dbg])
        missing.push({
          part: archivePath('istio', d.namespace, d.pod, 'debug', dbg),
          reason: 'not in the archive (istioctl writes no file for an empty or failed answer)',
        });
  const PROXY_PARTS = [
    ['configDump', 'config_dump?include_eds'],
    ['clusters', 'clusters'],
    ['stats', 'stats/prometheus'],
    ['log', 'istio-proxy.log'],
  ] as const;
  for (const p of layout.proxies) {
    const ztunnel = !p.edsIncluded && p.files.configDump !== undefined;
    for (const [kind, file] of PROXY_PARTS) {
      if (ztunnel && kind !== 'log') continue;
      if (!p.files[kind])
        missing.push({
          part: archivePath('proxies', p.namespace, p.pod, file),
          reason:
            kind === 'log'
              ? 'not in the archive: istioctl writes no log file when the log of its window was empty or could not be read'
              : 'not in the archive: istioctl could not read it from the proxy’s Envoy admin, or the answer was empty',
        });
    }
  }
  const withFiles = new Set(layout.proxies.map((p) => JSON.stringify([p.namespace, p.pod])));
  for (const o of collected.objects) {
    if (o.kind !== 'Pod' || !hasProxyContainer(o)) continue;
    const key = JSON.stringify([o.metadata.namespace ?? '', o.metadata.name]);
    if (!withFiles.has(key))
      missing.push({
        part: `${archivePath('proxies', o.metadata.namespace ?? '', o.metadata.name)}/`,
        reason:
          'the pod has an istio-proxy but no files in the archive: an --include/--exclude filter left it out, or istioctl could not reach it',
      });
  }
  return {
    name,
    format: contents.format,
    entries: contents.entries,
    problems: contents.problems,
    layout,
    objects: collected.objects,
    events,
    parseProblems,
    proxies: layout.proxies,
    istiods: layout.istiods,
    capture,
    missing,
    read,
  };
}

/** The file system `readArchive` reads through (node's `fs.promises` and `fs.createReadStream`). */
export interface ArchiveFileSystem extends ArchiveFs {
  createReadStream(p: string): AsyncIterable<Uint8Array>;
}

/**
 * Reads an `istioctl bug-report` archive, a `.tar.gz`/`.tgz` file or the folder it unpacks to,
 * within `limits` (lib/archive/limits), and indexes it. Hostile forms are skipped and named in
 * `problems` or refused with an ArchiveError; nothing is written anywhere.
 */
export async function readArchive(
  file: string,
  limits: ArchiveLimits,
  fsys: ArchiveFileSystem,
): Promise<ArchiveIndex> {
  const st = await fsys.lstat(file);
  const name = file.split(/[\\/]/).filter(Boolean).pop() ?? file;
  const contents = st.isDirectory()
    ? await readArchiveFolder(file, fsys, limits)
    : await readTarGz(fsys.createReadStream(file), limits);
  return indexArchive(contents, name);
}
