/**
 * The tables `istioctl ztunnel-config` (alias `zc`) prints, read into the ztunnel model
 * (lib/configdump/ztunnel.ts ZtunnelDump).
 *
 * FIELD NOTES (istio/istio istioctl/pkg/writer/ztunnel/configdump, configdump.go and the
 * writers): tables are tabwriter output (left-aligned columns, at least one space between):
 * workloads `NAMESPACE POD NAME ADDRESS NODE WAYPOINT PROTOCOL` (1.22 docs: `IP` for ADDRESS,
 * 1.22 dev: `NAME NETWORK IP`), services `NAMESPACE SERVICE NAME SERVICE VIP WAYPOINT
 * ENDPOINTS` (ENDPOINTS `healthy/all`), policies `NAMESPACE POLICY NAME ACTION SCOPE`,
 * certificates `CERTIFICATE NAME TYPE STATUS VALID CERT SERIAL NUMBER NOT AFTER NOT BEFORE`.
 * `istioctl zc all` (PrintFullSummary) prints the four one after another, each after a blank
 * line; its test data adds the connections table (`WORKLOAD DIRECTION LOCAL REMOTE REMOTE
 * TARGET PROTOCOL`), which the ztunnel model has no place for: it is named as not read.
 * A waypoint of `None` is no waypoint. A table has no uid: a workload row is taken for a pod
 * `Kubernetes//Pod/NS/NAME` (a WorkloadEntry row is then misread as a pod).
 */
import type { ZtunnelParse } from '../configdump/ztunnel';
import type { DumpProblem } from '../configdump/types';
import { printedColumns, printedRows, type PrintedRow } from '../configdump/printed-table';
import { podWorkloadUid } from '../refs/pod-ref';
import { serviceFqdn } from '../refs/service-host';

export type ZtunnelTableKind = 'workloads' | 'services' | 'policies' | 'certificates';

const HEADERS: Record<ZtunnelTableKind | 'connections', RegExp> = {
  // NAMESPACE first from 1.22 (NETWORK in some, ADDRESS for IP later); before it
  // `x zc workload` printed NAME NAMESPACE IP NODE, then L7 SUPPORT (1.17) or WAYPOINT, PROTOCOL
  workloads:
    /^(?:NAMESPACE\s+(?:POD NAME|NAME)|NAME\s+NAMESPACE)\s+(?:.*\s)?(?:ADDRESS|POD IP|IP)\s+NODE(?:\s+(?:WAYPOINT|L7 SUPPORT))?(?:\s+PROTOCOL)?\s*$/,
  services: /^NAMESPACE\s+SERVICE NAME\s+SERVICE VIP\s+WAYPOINT\s+ENDPOINTS\s*$/,
  policies: /^NAMESPACE\s+POLICY NAME\s+ACTION\s+SCOPE\s*$/,
  certificates:
    /^CERTIFICATE NAME\s+TYPE\s+STATUS\s+VALID CERT\s+SERIAL NUMBER\s+NOT AFTER\s+NOT BEFORE\s*$/,
  connections: /^WORKLOAD\s+DIRECTION\s+LOCAL\s+REMOTE\s+REMOTE TARGET\s+PROTOCOL\s*$/,
};
const KINDS = Object.keys(HEADERS) as (keyof typeof HEADERS)[];

/** Which `istioctl zc` table a line is the header of, or null. */
export function tableHeaderKind(line: string): keyof typeof HEADERS | null {
  const header = line.replace(/\s+$/, '');
  return KINDS.find((k) => HEADERS[k].test(header)) ?? null;
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
  'REMOTE TARGET',
  'POD IP',
  'L7 SUPPORT',
];

function problem(line: number, message: string): DumpProblem {
  return { line, reason: 'bad-entry', message };
}

export interface ZtunnelTables {
  /** The tables read, in the order they appear. */
  kinds: ZtunnelTableKind[];
  parse: ZtunnelParse;
}

/**
 * Every `istioctl zc` table in a pasted text (one table, or the four of `zc all`), into one
 * ztunnel model; null when the text has none. A connections table is named as not read.
 */
export function readZtunnelTables(text: string): ZtunnelTables | null {
  const lines = text.split(/\r?\n/);
  const kinds: ZtunnelTableKind[] = [];
  const errors: DumpProblem[] = [];
  const dump: ZtunnelParse['dump'] = { workloads: [], services: [], policies: 0, certificates: 0 };
  for (let i = 0; i < lines.length; i++) {
    const kind = tableHeaderKind(lines[i] as string);
    if (!kind) continue;
    const rs = printedRows(
      lines,
      i + 1,
      printedColumns((lines[i] as string).replace(/\s+$/, ''), KNOWN),
    );
    if (kind === 'connections')
      errors.push(
        problem(
          i + 1,
          `the connections table (${rs.length} rows) is not read: the ztunnel model has no connections`,
        ),
      );
    else {
      kinds.push(kind);
      for (const r of rs) addRow(kind, r, dump, errors);
    }
    i += rs.length;
  }
  return kinds.length === 0 ? null : { kinds, parse: { dump, errors } };
}

function addRow(
  kind: ZtunnelTableKind,
  r: PrintedRow,
  dump: ZtunnelParse['dump'],
  errors: DumpProblem[],
): void {
  const get = (...names: string[]) => names.map((n) => r.cells.get(n)).find((v) => v) ?? '';
  const waypointOf = () => {
    const w = get('WAYPOINT');
    return w === '' || w === 'None' ? null : w;
  };
  if (kind === 'workloads') {
    const name = get('POD NAME', 'NAME');
    const namespace = get('NAMESPACE');
    const ip = get('ADDRESS', 'IP', 'POD IP');
    if (!name || !namespace || !ip) {
      errors.push(problem(r.line, `workload row needs NAMESPACE, NAME and ADDRESS`));
      return;
    }
    dump.workloads.push({
      name,
      namespace,
      ip,
      ips: [ip],
      node: get('NODE'),
      waypoint: waypointOf(),
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
      return;
    }
    const vips = get('SERVICE VIP')
      .split(',')
      .filter((v) => v !== '');
    dump.services.push({
      name,
      namespace,
      hostname: serviceFqdn(name, namespace),
      vip: vips[0] ?? '',
      vips,
      endpoints: Number(eps[2] ?? eps[1]),
      endpointIps: [],
      waypoint: waypointOf(),
    });
  } else if (kind === 'policies') dump.policies++;
  else {
    dump.certificates++;
    const status = get('STATUS');
    if (status) {
      const states = (dump.certificateStates ??= {});
      states[status] = (states[status] ?? 0) + 1;
    }
  }
}
