/**
 * What `istioctl ztunnel-config` (alias `zc`) prints, read into the ztunnel model the dashboard
 * uses (lib/configdump/ztunnel.ts ZtunnelDump, which lib/ambient/ztunnel.ts reads as its
 * ZtunnelConfig): the form people paste instead of the admin dump.
 *
 * FIELD NOTES (istio/istio istioctl/pkg/writer/ztunnel/configdump, api.go and the writers):
 * - `-o json|yaml` of `workloads`, `services`, `policies`, `certificates` is a LIST of the
 *   dump's entries (same keys as /config_dump: workloads have workloadIps, uid, protocol;
 *   services hostname and vips; policies action and scope; certificates identity and state);
 *   `all -o json` is the whole dump object (read by isZtunnelDump).
 * - Tables are tabwriter output (left-aligned columns, at least one space between):
 *   workloads `NAMESPACE POD NAME ADDRESS NODE WAYPOINT PROTOCOL` (1.22 docs: `IP` for
 *   ADDRESS, 1.22 dev: `NAME NETWORK IP`), services `NAMESPACE SERVICE NAME SERVICE VIP
 *   WAYPOINT ENDPOINTS` (ENDPOINTS `healthy/all`), policies `NAMESPACE POLICY NAME ACTION
 *   SCOPE`, certificates `CERTIFICATE NAME TYPE STATUS VALID CERT SERIAL NUMBER NOT AFTER NOT
 *   BEFORE`. A waypoint of `None` is no waypoint.
 * - A table has no uid: a workload row is taken for a pod `Kubernetes//Pod/NS/NAME` (what
 *   istioctl lists is pods and WorkloadEntries; a WorkloadEntry row is then misread as a pod).
 */
import { isObject } from '../configdump/fields';
import { readStructuredText } from '../configdump/text';
import { readZtunnelDump, type ZtunnelParse } from '../configdump/ztunnel';
import type { DumpProblem } from '../configdump/types';
import { podWorkloadUid } from '../refs/pod-ref';

export type ZtunnelOutputKind = 'workloads' | 'services' | 'policies' | 'certificates';

export interface ZtunnelOutputRead {
  /** Which `istioctl ztunnel-config` command printed it, and in which form. */
  command: ZtunnelOutputKind;
  form: 'json' | 'yaml' | 'table';
  parse: ZtunnelParse;
}

function entryKind(v: unknown): ZtunnelOutputKind | null {
  if (!isObject(v)) return null;
  if ('workloadIps' in v || ('uid' in v && 'protocol' in v)) return 'workloads';
  if ('hostname' in v && ('vips' in v || 'endpoints' in v)) return 'services';
  if ('action' in v && ('scope' in v || 'rules' in v)) return 'policies';
  if ('identity' in v && ('state' in v || 'certChain' in v)) return 'certificates';
  return null;
}

/** A parsed document that is a list printed by `istioctl zc KIND -o json|yaml`, or null. */
export function readZtunnelList(value: unknown, form: 'json' | 'yaml'): ZtunnelOutputRead | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const kinds = value.map(entryKind);
  const first = kinds.find((k) => k !== null);
  // every entry (or all but unreadable ones) of one kind: a list of another shape is not ours
  if (!first || kinds.filter((k) => k === first).length < Math.ceil(value.length / 2)) return null;
  const parse = readZtunnelDump({ [first]: value });
  return { command: first, form, parse };
}

const HEADERS: Record<ZtunnelOutputKind, RegExp> = {
  workloads: /^NAMESPACE\s+(?:POD NAME|NAME)\s+.*\b(?:ADDRESS|IP)\s+NODE\s+WAYPOINT\s+PROTOCOL\s*$/,
  services: /^NAMESPACE\s+SERVICE NAME\s+SERVICE VIP\s+WAYPOINT\s+ENDPOINTS\s*$/,
  policies: /^NAMESPACE\s+POLICY NAME\s+ACTION\s+SCOPE\s*$/,
  certificates:
    /^CERTIFICATE NAME\s+TYPE\s+STATUS\s+VALID CERT\s+SERIAL NUMBER\s+NOT AFTER\s+NOT BEFORE\s*$/,
};

/** Column names of a header, with the offset each starts at (names may hold one space). */
function columns(header: string): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  const re = /\S+(?: \S+)*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(header)) !== null) {
    // tabwriter pads with spaces; two-word names (`POD NAME`) keep one space inside
    for (const part of splitWide(m[0], m.index)) out.push(part);
  }
  return out;
}

/** `NAMESPACE POLICY NAME` printed with one space between columns: split on known names. */
const KNOWN = [
  'POD NAME',
  'SERVICE NAME',
  'SERVICE VIP',
  'POLICY NAME',
  'CERTIFICATE NAME',
  'VALID CERT',
  'SERIAL NUMBER',
  'NOT AFTER',
  'NOT BEFORE',
];
function splitWide(text: string, at: number): { name: string; at: number }[] {
  const out: { name: string; at: number }[] = [];
  const words = text.split(' ');
  let pos = at;
  for (let i = 0; i < words.length; i++) {
    const two = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : '';
    if (KNOWN.includes(two)) {
      out.push({ name: two, at: pos });
      pos += two.length + 1;
      i++;
    } else {
      out.push({ name: words[i] as string, at: pos });
      pos += (words[i] as string).length + 1;
    }
  }
  return out;
}

interface Row {
  line: number;
  cells: Map<string, string>;
}

/** Rows of a tabwriter table: each value starts at its column's offset (values hold no space). */
function rows(lines: string[], from: number, cols: { name: string; at: number }[]): Row[] {
  const out: Row[] = [];
  for (let i = from; i < lines.length; i++) {
    const text = (lines[i] as string).replace(/\s+$/, '');
    if (text === '') break;
    const cells = new Map<string, string>();
    const re = /\S+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      // the last column starting at or before the value
      let col = cols[0];
      for (const c of cols) if (c.at <= m.index) col = c;
      if (col) cells.set(col.name, cells.has(col.name) ? `${cells.get(col.name)} ${m[0]}` : m[0]);
    }
    out.push({ line: i + 1, cells });
  }
  return out;
}

function problem(line: number, message: string): DumpProblem {
  return { line, reason: 'bad-entry', message };
}

/** A pasted `istioctl zc KIND` table (the first such header in the text), or null. */
export function readZtunnelTable(text: string): ZtunnelOutputRead | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const header = (lines[i] as string).replace(/\s+$/, '');
    const kind = (Object.keys(HEADERS) as ZtunnelOutputKind[]).find((k) => HEADERS[k].test(header));
    if (!kind) continue;
    const rs = rows(lines, i + 1, columns(header));
    return { command: kind, form: 'table', parse: tableParse(kind, rs) };
  }
  return null;
}

function tableParse(kind: ZtunnelOutputKind, rs: Row[]): ZtunnelParse {
  const errors: DumpProblem[] = [];
  const dump: ZtunnelParse['dump'] = { workloads: [], services: [], policies: 0, certificates: 0 };
  for (const r of rs) {
    const get = (...names: string[]) => names.map((n) => r.cells.get(n)).find((v) => v) ?? '';
    if (kind === 'workloads') {
      const name = get('POD NAME', 'NAME');
      const namespace = get('NAMESPACE');
      const ip = get('ADDRESS', 'IP');
      if (!name || !namespace || !ip) {
        errors.push(problem(r.line, `workload row needs NAMESPACE, NAME and ADDRESS`));
        continue;
      }
      const waypoint = get('WAYPOINT');
      dump.workloads.push({
        name,
        namespace,
        ip,
        ips: [ip],
        node: get('NODE'),
        waypoint: waypoint === '' || waypoint === 'None' ? null : waypoint,
        protocol: get('PROTOCOL') || 'TCP',
        uid: podWorkloadUid({ namespace, name }),
        status: null,
      });
    } else if (kind === 'services') {
      const name = get('SERVICE NAME');
      const namespace = get('NAMESPACE');
      const eps = /^(\d+)\/(\d+)$/.exec(get('ENDPOINTS')) ?? /^(\d+)$/.exec(get('ENDPOINTS'));
      if (!name || !namespace || !eps) {
        errors.push(problem(r.line, `service row needs NAMESPACE, SERVICE NAME and ENDPOINTS`));
        continue;
      }
      const vips = get('SERVICE VIP')
        .split(',')
        .filter((v) => v !== '');
      const waypoint = get('WAYPOINT');
      dump.services.push({
        name,
        namespace,
        hostname: `${name}.${namespace}.svc.cluster.local`,
        vip: vips[0] ?? '',
        vips,
        endpoints: Number(eps[2] ?? eps[1]),
        endpointIps: [],
        waypoint: waypoint === '' || waypoint === 'None' ? null : waypoint,
      });
    } else if (kind === 'policies') dump.policies++;
    else dump.certificates++;
  }
  return { dump, errors };
}

/**
 * Any form `istioctl ztunnel-config workloads|services|policies|certificates` prints: a JSON
 * or YAML list, or a table. Null when the text is none of these (the whole dump of `all -o
 * json` is a ztunnel dump, read by lib/configdump/ztunnel.ts).
 */
export function readZtunnelConfigOutput(text: string): ZtunnelOutputRead | null {
  const start = /\S/.exec(text)?.[0];
  if (start === '[' || start === '-') {
    const read = readStructuredText(text);
    if (read.errors.length > 0) return null;
    return readZtunnelList(read.value, read.syntax);
  }
  return readZtunnelTable(text);
}
