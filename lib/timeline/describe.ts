/**
 * `kubectl describe pod` text (one pod or several), read into the Pod objects and Events the
 * timeline analysis reads, with what describe's text could not tell.
 *
 * FIELD NOTES (kubernetes/kubectl pkg/describe, describePod / describeContainers):
 * - Top-level `Key:  value` lines at column 0 (Name, Namespace, Node, Start Time, Labels,
 *   Annotations, Status, IP, Controlled By, ...), sections `Init Containers:`, `Containers:`,
 *   `Conditions:`, `Volumes:`, `Events:`. Several pods are separated by a blank line.
 * - A container is `  NAME:` then `    Key:  value` lines; `State:` / `Last State:` carry
 *   `      Reason:`, `Exit Code:`, `Started:`, `Finished:` below them. Times are RFC 1123 with a
 *   zone (`Thu, 25 Nov 2021 12:31:07 +0800`), to the second, on the kubelet's clock: as good
 *   as the API's. A container's restartPolicy is not printed (kubectl's describeContainer*
 *   functions have no such line): istio-proxy under `Init Containers:` is taken as a native
 *   sidecar, since Istio's injector puts it there only with `restartPolicy: Always`; a
 *   `Restart Policy:` line, should a kubectl print one, is read as such.
 * - Conditions are `Type  Status` rows without their lastTransitionTime; lifecycle hooks
 *   (a hold's postStart `pilot-agent wait`) are not printed at all; the pod's uid neither.
 * - Annotations show at the value column; long values are cut with `...` by kubectl.
 */
import type { Container, ContainerState, ContainerStatus, KubeEvent, Pod } from '../kube/types';
import { anchorClock, parseEventRow, toKubeEvents, type DescribeEventRow } from './describe-events';
import type { TimelineInputProblem } from './position';

export interface DescribedPod {
  pod: Pod;
  events: KubeEvent[];
  /** What the describe text could not tell about this pod, in words. */
  unknowns: string[];
  /** How well the events are placed in time: medium (to a few seconds), low, or none. */
  eventTimes: 'medium' | 'low' | 'none';
  /**
   * Null when every container is in the paste; else why not (the paste ends before the
   * Containers section is over), and whether istio-proxy is known to be a regular container
   * (shown, or named in sidecar.istio.io/status).
   */
  containersCut: { why: string; proxyContainer: boolean } | null;
}

export interface DescribeRead {
  pods: DescribedPod[];
  errors: TimelineInputProblem[];
}

interface Line {
  n: number;
  text: string;
}

/** True when a text starts as `kubectl describe pod` output (Name: then Namespace:). */
export function looksLikeDescribe(text: string): boolean {
  const head = text.slice(0, 4096).replace(/\r/g, '').split('\n', 30);
  const name = head.findIndex((l) => /^Name:\s+\S/.test(l));
  return name >= 0 && head.slice(name + 1, name + 4).some((l) => /^Namespace:\s+\S/.test(l));
}

/** The line of a describe Events table pasted without its pod (no `Name:` line), or null. */
export function describeOnlyEvents(text: string): number | null {
  const lines = text
    .slice(0, 64 * 1024)
    .replace(/\r/g, '')
    .split('\n', 40);
  if (lines.some((l) => /^Name:\s+\S/.test(l))) return null;
  const i = lines.findIndex(
    (l) => /^\s*Type\s+Reason\s+Age\s+From\s+Message\s*$/.test(l) || parseEventRow(l, 0) !== null,
  );
  return i < 0 ? null : i + 1;
}

/** The kind a describe block is of, from the keys describe prints for each kind. */
export function describeKindOf(keys: ReadonlySet<string>, kindLine = ''): string {
  if (kindLine) return kindLine.toLowerCase();
  if (keys.has('Containers') || keys.has('Init Containers')) return 'pod';
  if (keys.has('StrategyType') || keys.has('RollingUpdateStrategy')) return 'deployment';
  if (keys.has('Replicas') && keys.has('Update Strategy')) return 'statefulset';
  if (keys.has('Desired Number of Nodes Scheduled')) return 'daemonset';
  if (keys.has('Replicas') && keys.has('Pods Status')) return 'replicaset';
  if (keys.has('Roles') || keys.has('System Info')) return 'node';
  if (keys.has('Endpoints') && keys.has('Type')) return 'service';
  return 'object';
}

/** Which kind the first block of a describe text is of (`pod`, `deployment`...), or null. */
export function describedKind(text: string): string | null {
  if (!looksLikeDescribe(text)) return null;
  const lines = text
    .slice(0, 64 * 1024)
    .replace(/\r/g, '')
    .split('\n');
  const start = lines.findIndex((l) => /^Name:\s+\S/.test(l));
  const next = lines.findIndex((l, i) => i > start && /^Name:\s+\S/.test(l));
  const block = lines.slice(start, next < 0 ? lines.length : next).map((text, n) => ({ n, text }));
  return describeKindOf(new Set(top(block).keys()), valueOf(top(block).get('Kind')));
}

/** Every pod in a describe text; what is not a pod or cannot be read is an error. */
export function readDescribe(text: string): DescribeRead {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .map((t, i) => ({ n: i + 1, text: t.replace(/\r$/, '') }));
  const starts = lines.filter((l) => /^Name:\s+\S/.test(l.text)).map((l) => l.n - 1);
  const out: DescribeRead = { pods: [], errors: [] };
  starts.forEach((s, i) => {
    const block = lines.slice(s, starts[i + 1] ?? lines.length);
    const read = readOne(block);
    if ('error' in read) out.errors.push(read.error);
    else out.pods.push(read);
  });
  return out;
}

function top(block: Line[]): Map<string, Line> {
  const m = new Map<string, Line>();
  for (const l of block) {
    const k = /^([A-Z][A-Za-z -]*):/.exec(l.text);
    if (k && !m.has(k[1] as string)) m.set(k[1] as string, l);
  }
  return m;
}

const valueOf = (l: Line | undefined) => l?.text.replace(/^[^:]+:\s*/, '').trim() ?? '';

/** The lines of a column-0 section, up to the next column-0 key. */
function section(block: Line[], at: Line | undefined): Line[] {
  if (!at) return [];
  const i = block.indexOf(at);
  const end = block.findIndex((l, j) => j > i && /^\S/.test(l.text));
  return block.slice(i + 1, end < 0 ? block.length : end);
}

function readOne(block: Line[]): DescribedPod | { error: TimelineInputProblem } {
  const first = block[0] as Line;
  const keys = top(block);
  const name = valueOf(keys.get('Name'));
  const namespace = valueOf(keys.get('Namespace'));
  const at = { line: first.n, column: 1 };
  const kind = describeKindOf(new Set(keys.keys()), valueOf(keys.get('Kind')));
  if (kind !== 'pod') {
    return {
      error: {
        ...at,
        reason: 'not-a-pod',
        message: `${name}: this looks like \`kubectl describe ${kind}\` output, not a pod's (no Containers section): \`meshdx timeline\` reads \`kubectl describe pod\``,
      },
    };
  }
  const unknowns: string[] = [];
  const annotations = readAnnotations(section(block, keys.get('Annotations')), keys);
  const init = readContainers(section(block, keys.get('Init Containers')));
  const main = readContainers(section(block, keys.get('Containers')));
  const conditions = section(block, keys.get('Conditions'))
    .map((l) => /^\s+(\w+)\s+(True|False|Unknown)\s*$/.exec(l.text))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ type: m[1] as string, status: m[2] as string }));
  const proxy = [...init.specs, ...main.specs].find((c) => c.name === 'istio-proxy');
  if (proxy && init.specs.includes(proxy) && proxy.restartPolicy === undefined) {
    proxy.restartPolicy = 'Always';
    unknowns.push(
      "init containers' restartPolicy: describe does not print it; istio-proxy among the Init Containers is taken as a native sidecar (Istio injects it there only with restartPolicy: Always)",
    );
  }
  const hold =
    /hold(?:ApplicationUntilProxyStarts|_application_until_proxy_starts)"?\s*:\s*"?true/i;
  if (proxy && hold.test(annotations['proxy.istio.io/config'] ?? '') && main.specs[0] === proxy) {
    // the injector adds the postStart wait with the setting; describe does not print hooks
    proxy.lifecycle = { postStart: { exec: { command: ['pilot-agent', 'wait'] } } };
    unknowns.push(
      'postStart hooks: describe does not print them; the pilot-agent wait is taken from holdApplicationUntilProxyStarts in proxy.istio.io/config with istio-proxy placed first',
    );
  } else if (proxy && main.specs[0] === proxy && main.specs.length > 1)
    unknowns.push(
      'postStart hooks: describe does not print them, so a hold from the mesh config (istio-proxy is placed first) cannot be seen',
    );
  unknowns.push('condition times: describe prints no lastTransitionTime');
  unknowns.push("the pod's uid and creation time");
  const startTime = toIso(valueOf(keys.get('Start Time')));
  const node = valueOf(keys.get('Node')).split('/')[0];
  const pod: Pod = {
    metadata: {
      name,
      namespace,
      annotations,
      labels: readLabels(section(block, keys.get('Labels')), keys),
    },
    spec: {
      ...(node && node !== '<none>' ? { nodeName: node } : {}),
      containers: main.specs,
      initContainers: init.specs,
    },
    status: {
      phase: valueOf(keys.get('Status')) || undefined,
      ...(startTime ? { startTime } : {}),
      conditions,
      containerStatuses: main.statuses,
      initContainerStatuses: init.statuses,
    },
  };
  if (truncated(block)) unknowns.push('the paste ends inside the pod: what follows is missing');
  const containersCut = cutContainers(block, keys, annotations, main.specs);
  const rows: DescribeEventRow[] = section(block, keys.get('Events'))
    .map((l) => parseEventRow(l.text, l.n))
    .filter((r): r is DescribeEventRow => r !== null);
  const started = new Map<string, { at: number; restarts: number }>();
  for (const s of [...init.statuses, ...main.statuses]) {
    const t = Date.parse(s.state?.running?.startedAt ?? s.state?.terminated?.startedAt ?? '');
    if (!Number.isNaN(t)) started.set(s.name, { at: t, restarts: s.restartCount });
  }
  const clock = anchorClock(rows, started);
  const initNames = new Set(init.specs.map((c) => c.name));
  const events = toKubeEvents(rows, { name, namespace, initContainers: initNames }, clock);
  let eventTimes: DescribedPod['eventTimes'] = 'none';
  if (rows.length === 0) unknowns.push('events: the paste has no Events rows');
  else if (!clock) {
    for (const e of events) {
      delete e.firstTimestamp;
      delete e.lastTimestamp;
    }
    unknowns.push(
      "event times: an event's Age is relative to when describe ran, which describe does not print, and no Started event of a container with a Started time places it",
    );
  } else {
    eventTimes = clock.errorMs <= 2000 ? 'medium' : 'low';
    unknowns.push(
      `event times: from their Age, placed by ${clock.by}; off by up to ${clock.errorMs / 1000}s plus each Age's own resolution`,
    );
  }
  return { pod, events, unknowns, eventTimes, containersCut };
}

/** Whether the paste ends before the Containers section is over (a key follows it if not). */
function cutContainers(
  block: Line[],
  keys: Map<string, Line>,
  annotations: Record<string, string>,
  main: Container[],
): DescribedPod['containersCut'] {
  const at = keys.get('Containers');
  const after = at ? block.slice(block.indexOf(at) + 1).some((l) => /^[A-Z]/.test(l.text)) : false;
  if (after) return null;
  const status = annotations['sidecar.istio.io/status'] ?? '';
  const proxyContainer =
    main.some((c) => c.name === 'istio-proxy') || /"containers":\["istio-proxy"/.test(status);
  const last = main.at(-1)?.name;
  return {
    why: at
      ? `the paste ends inside its Containers section (after ${last ?? 'its start'}): containers after the cut and their start times are missing`
      : 'the paste ends before its Containers section: the app and sidecar containers are missing',
    proxyContainer,
  };
}

function truncated(block: Line[]): boolean {
  const last = [...block].reverse().find((l) => l.text.trim() !== '');
  return !last || !/^\s*(?:Events:\s*<none>|Normal|Warning)\b/.test(last.text);
}

/** `Thu, 25 Nov 2021 12:31:07 +0800` -> ISO 8601; '' when not a time. */
function toIso(text: string): string {
  const t = Date.parse(text);
  return /^\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}$/.test(text) && !Number.isNaN(t)
    ? new Date(t).toISOString().replace('.000Z', 'Z')
    : '';
}

/** `key: value` lines at the value column; a value continued on deeper lines is joined. */
function readAnnotations(lines: Line[], keys: Map<string, Line>): Record<string, string> {
  const head = keys.get('Annotations');
  const out: Record<string, string> = {};
  if (!head) return out;
  const col = head.text.length - head.text.replace(/^Annotations:\s*/, '').length;
  let last: string | null = null;
  for (const l of [{ n: head.n, text: ' '.repeat(col) + valueOf(head) }, ...lines]) {
    const indent = l.text.length - l.text.trimStart().length;
    const kv = /^([\w./-]+)[:=]\s*(.*)$/.exec(l.text.trim());
    if (indent === col && kv) {
      last = kv[1] as string;
      out[last] = (kv[2] as string).trim();
    } else if (last && indent > col)
      out[last] = `${out[last]}${out[last] ? '\n' : ''}${l.text.trim()}`;
  }
  delete out['<none>'];
  return out;
}

function readLabels(lines: Line[], keys: Map<string, Line>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of [valueOf(keys.get('Labels')), ...lines.map((l) => l.text.trim())]) {
    const m = /^([^=\s]+)=(\S*)$/.exec(t);
    if (m) out[m[1] as string] = m[2] as string;
  }
  return out;
}

interface Containers {
  specs: Container[];
  statuses: ContainerStatus[];
}

function readContainers(lines: Line[]): Containers {
  const out: Containers = { specs: [], statuses: [] };
  let spec: Container | null = null;
  let status: ContainerStatus | null = null;
  let state: 'state' | 'lastState' | null = null;
  for (const l of lines) {
    const name = /^ {2}([a-z0-9][a-z0-9.-]*):\s*$/.exec(l.text);
    if (name) {
      spec = { name: name[1] as string };
      status = { name: spec.name, ready: false, restartCount: 0 };
      out.specs.push(spec);
      out.statuses.push(status);
      state = null;
      continue;
    }
    const kv = /^( {4,6})([A-Z][A-Za-z ]*):\s*(.*)$/.exec(l.text);
    if (!kv || !spec || !status) continue;
    const [, indent, key, value] = kv as unknown as [string, string, string, string];
    if (indent.length === 4) {
      state = null;
      if (key === 'State' || key === 'Last State') {
        state = key === 'State' ? 'state' : 'lastState';
        status[state] = stateOf(value.trim());
      } else if (key === 'Ready') status.ready = value.trim() === 'True';
      else if (key === 'Started') status.started = value.trim() === 'True';
      else if (key === 'Restart Count') status.restartCount = Number(value.trim()) || 0;
      else if (key === 'Restart Policy') spec.restartPolicy = value.trim();
      else if (key === 'Image') spec.image = value.trim();
      else if (key === 'Readiness') spec.readinessProbe = probeOf(value);
      else if (key === 'Liveness') spec.livenessProbe = probeOf(value);
      else if (key === 'Startup') spec.startupProbe = probeOf(value);
    } else if (state) addStateField(status[state], key, value.trim());
  }
  return out;
}

function stateOf(value: string): ContainerState | undefined {
  if (value === 'Running') return { running: {} };
  if (value === 'Terminated') return { terminated: { exitCode: -1 } };
  if (value === 'Waiting') return { waiting: {} };
  return undefined;
}

function addStateField(s: ContainerState | undefined, key: string, value: string): void {
  if (!s) return;
  const iso = toIso(value);
  if (s.running && key === 'Started' && iso) s.running.startedAt = iso;
  if (s.waiting && key === 'Reason') s.waiting.reason = value;
  const t = s.terminated;
  if (!t) return;
  if (key === 'Reason') t.reason = value;
  else if (key === 'Exit Code') t.exitCode = Number(value);
  else if (key === 'Started' && iso) t.startedAt = iso;
  else if (key === 'Finished' && iso) t.finishedAt = iso;
}

/** `http-get http://:15021/healthz/ready delay=1s timeout=3s period=15s #success=1 #failure=4` */
function probeOf(value: string): Container['readinessProbe'] {
  const num = (k: string) => {
    const m = new RegExp(`(?:^|\\s)${k}=(\\d+)s?`).exec(value);
    return m ? Number(m[1]) : undefined;
  };
  const http = /http-get https?:\/\/[^:/]*:(\d+)(\/\S*)/.exec(value);
  return {
    ...(http ? { httpGet: { port: Number(http[1]), path: http[2] as string } } : {}),
    initialDelaySeconds: num('delay'),
    periodSeconds: num('period'),
    timeoutSeconds: num('timeout'),
    failureThreshold: num('#failure'),
  };
}
