/**
 * What `istioctl proxy-status` prints, every generation (istio/istio
 * istioctl/pkg/writer/pilot/status.go and its history), read back:
 * - table `NAME CDS LDS EDS RDS PILOT VERSION` (to 1.5), `ISTIOD` for `PILOT` from 1.6,
 *   `CLUSTER` after NAME from 1.13, `ECDS` after RDS from 1.14;
 * - a state per type: SYNCED, NOT SENT, STALE (`STALE (Never Acknowledged)` to 1.22), IGNORED
 *   (a type the proxy does not subscribe to), ERROR; from 1.23 SYNCED and STALE carry the time
 *   since the last update in parentheses (`STALE (5m2s)`), very old EDS a percentage;
 * - from 1.27 the table is `NAME CLUSTER ISTIOD VERSION SUBSCRIBED TYPES` (`5 (CDS,LDS,EDS,RDS,
 *   ECDS)`): it names the types, not their state, which only `--verbose` prints (`NAME CLUSTER`,
 *   one column per type in type-URL order, `ISTIOD VERSION`);
 * - from 1.30 `-o json|yaml`: one xDS DiscoveryResponse per istiod, printed one after the
 *   other, each resource a ClientConfig (`node.id`, `node.metadata.CLUSTER_ID` and
 *   `ISTIO_VERSION`, `genericXdsConfigs[].{typeUrl, configStatus, lastUpdated}`), the istiod in
 *   `controlPlane.identifier` (a JSON text with its `ID`).
 */
import { createJsonSplitter } from '../json-stream';
import { arrayField, field, stringField } from './fields';
import { readStructuredText } from './text';
import { printedColumns, printedRows } from './printed-table';
import type { DumpProblem } from './types';

/** One xDS type's state for a proxy. */
export interface XdsTypeState {
  /** CDS, LDS, EDS, RDS, ECDS, SDS, NDS, PCDS, WDS, WADS, or the type URL istioctl printed. */
  type: string;
  /**
   * SYNCED, STALE, NOT SENT, IGNORED, ERROR...; null when the output prints none: the 1.27+
   * short table (it names subscribed types only), or an empty cell: unknown.
   */
  state: string | null;
  /** What followed in parentheses (`5m2s`, `Never Acknowledged`, `100%`), or null. */
  detail: string | null;
}

export interface ProxyStatusRow {
  /** NAME as printed: `POD.NAMESPACE`, the proxy's id. */
  proxy: string;
  cluster: string | null;
  istiod: string | null;
  version: string | null;
  types: XdsTypeState[];
}

export interface ProxyStatusRead {
  form: 'table' | 'json' | 'yaml';
  /** False for the 1.27+ short table: types are named, their state is not printed. */
  hasStates: boolean;
  rows: ProxyStatusRow[];
  errors: DumpProblem[];
}

const JOINED = ['SUBSCRIBED TYPES', 'NOT SENT'];
const TYPE_COLUMN = /^[A-Z]+DS$/;

/** Whether a line is a `proxy-status` table header. */
export function isProxyStatusHeader(line: string): boolean {
  const names = printedColumns(line.trim(), JOINED).map((c) => c.name);
  return (
    names[0] === 'NAME' &&
    (names.includes('ISTIOD') || names.includes('PILOT')) &&
    names.includes('VERSION') &&
    (names.includes('SUBSCRIBED TYPES') || names.some((n) => TYPE_COLUMN.test(n)))
  );
}

/** `STALE (5m2s)` -> STALE and 5m2s. */
function stateOf(type: string, cell: string): XdsTypeState {
  const m = /^([A-Z][A-Z_ ]*?)(?:\s*\((.*)\))?$/.exec(cell.trim());
  if (!m) return { type, state: cell, detail: null };
  return { type, state: (m[1] as string).replace('_', ' '), detail: m[2] ?? null };
}

function readTable(text: string): ProxyStatusRead | null {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex(isProxyStatusHeader);
  if (at < 0) return null;
  const cols = printedColumns((lines[at] as string).replace(/\s+$/, ''), JOINED);
  const names = cols.map((c) => c.name);
  const known = ['NAME', 'CLUSTER', 'ISTIOD', 'PILOT', 'VERSION', 'SUBSCRIBED TYPES'];
  const errors: DumpProblem[] = [];
  const unknown = names.filter((n) => !known.includes(n) && !TYPE_COLUMN.test(n));
  if (unknown.length > 0)
    errors.push({
      line: at + 1,
      reason: 'bad-entry',
      message: `column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} not read: meshdx does not know ${unknown.length > 1 ? 'them' : 'it'}`,
    });
  const typeCols = names.filter((n) => TYPE_COLUMN.test(n));
  const subscribed = names.includes('SUBSCRIBED TYPES');
  const rows: ProxyStatusRow[] = [];
  for (const r of printedRows(lines, at + 1, cols)) {
    const get = (n: string) => r.cells.get(n) ?? null;
    // a row cut short lacks the columns after its cut: ISTIOD (or PILOT) and VERSION. A type
    // cell alone may be empty in a whole row (1.24 prints ECDS so for some proxies), and a
    // proxy istiod knows no version of prints an empty VERSION.
    const istiod = get('ISTIOD') ?? get('PILOT');
    if (get('NAME') === null || (istiod === null && get('VERSION') === null)) {
      const lacking = ['NAME', ...typeCols, 'ISTIOD', 'VERSION'].filter((n) => !r.cells.has(n));
      errors.push({
        line: r.line,
        reason: 'bad-entry',
        message: `row lacks ${lacking.join(', ')} (a cut line?)`,
      });
      continue;
    }
    let types: XdsTypeState[] = typeCols.map((t) => {
      const cell = get(t);
      return cell === null ? { type: t, state: null, detail: null } : stateOf(t, cell);
    });
    if (subscribed) {
      const m = /^\d+(?:\s*\(([^)]*)\))?$/.exec(get('SUBSCRIBED TYPES') ?? '');
      if (!m) {
        errors.push({
          line: r.line,
          reason: 'bad-entry',
          message: 'SUBSCRIBED TYPES is not `N (TYPES)`',
        });
        continue;
      }
      const listed = (m[1] ?? '').split(',').filter((t) => t !== '');
      types = listed.map((t) => ({ type: t, state: null, detail: null }));
    }
    rows.push({
      proxy: get('NAME') as string,
      cluster: get('CLUSTER'),
      istiod,
      version: get('VERSION'),
      types,
    });
  }
  return { form: 'table', hasStates: !subscribed, rows, errors };
}

const SHORT_TYPE: ReadonlyMap<string, string> = new Map([
  ['Cluster', 'CDS'],
  ['Listener', 'LDS'],
  ['RouteConfiguration', 'RDS'],
  ['ClusterLoadAssignment', 'EDS'],
  ['Secret', 'SDS'],
  ['NameTable', 'NDS'],
  ['ProxyConfig', 'PCDS'],
  ['TypedExtensionConfig', 'ECDS'],
  ['Address', 'WDS'],
  ['Workload', 'WDS'],
  ['Authorization', 'WADS'],
]);

/** istioctl's short name of a type URL (its GetShortType), the URL itself when unknown. */
function shortType(url: string): string {
  return SHORT_TYPE.get(url.slice(url.lastIndexOf('.') + 1)) ?? url;
}

/** The istiod named in a DiscoveryResponse's controlPlane.identifier (a JSON text). */
function istiodOf(response: unknown): string | null {
  const id = stringField(field(response, 'control_plane'), 'identifier');
  if (id === null) return null;
  try {
    const v: unknown = JSON.parse(id);
    return stringField(v, 'ID');
  } catch {
    return id;
  }
}

function rowsOfResponse(response: unknown, path: string, errors: DumpProblem[]): ProxyStatusRow[] {
  const istiod = istiodOf(response);
  const out: ProxyStatusRow[] = [];
  (arrayField(response, 'resources') ?? []).forEach((cc, i) => {
    const node = field(cc, 'node');
    const proxy = stringField(node, 'id');
    if (proxy === null) {
      errors.push({
        line: 0,
        reason: 'bad-entry',
        message: `${path}.resources[${i}] has no node.id`,
        path,
      });
      return;
    }
    const meta = field(node, 'metadata');
    const configs = arrayField(cc, 'generic_xds_configs') ?? [];
    out.push({
      proxy,
      cluster: stringField(meta, 'CLUSTER_ID'),
      istiod,
      version: stringField(meta, 'ISTIO_VERSION'),
      types: configs.map((g) => {
        const status = stringField(g, 'config_status');
        const updated = stringField(g, 'last_updated');
        return {
          type: shortType(stringField(g, 'type_url') ?? ''),
          // protojson leaves the enum's zero value (UNKNOWN) out; istioctl prints it IGNORED
          state: status === null || status === 'UNKNOWN' ? 'IGNORED' : status.replace('_', ' '),
          detail: updated,
        };
      }),
    });
  });
  return out;
}

/** Whether a parsed value is a proxy-status DiscoveryResponse (ClientConfig resources). */
function isStatusResponse(v: unknown): boolean {
  const t = stringField(v, 'type_url') ?? '';
  const first = (arrayField(v, 'resources') ?? [])[0];
  return (
    t.endsWith('.ClientConfig') || stringField(first, '@type')?.endsWith('.ClientConfig') === true
  );
}

/** YAML documents printed one after another without `---`: split where a top-level key repeats. */
function yamlDocuments(text: string): string[] {
  const docs: string[][] = [[]];
  let seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const key = /^([A-Za-z_]+):/.exec(line)?.[1];
    if (key && seen.has(key)) {
      docs.push([]);
      seen = new Set();
    }
    if (key) seen.add(key);
    docs[docs.length - 1]?.push(line);
  }
  return docs.map((d) => d.join('\n'));
}

function readMachine(text: string): ProxyStatusRead | null {
  const start = /\S/.exec(text)?.[0];
  const values: { value: unknown; path: string }[] = [];
  const errors: DumpProblem[] = [];
  let form: 'json' | 'yaml';
  if (start === '{') {
    form = 'json';
    const splitter = createJsonSplitter();
    const got = splitter.push(text);
    const end = splitter.end();
    for (const p of [...got.problems, ...end.problems])
      errors.push({ line: p.line, column: p.column, reason: 'syntax', message: p.message });
    got.values.forEach((c, i) => {
      try {
        values.push({ value: JSON.parse(c.text) as unknown, path: `[${i}]` });
      } catch (e) {
        errors.push({
          line: c.line,
          reason: 'syntax',
          message: `invalid JSON: ${(e as Error).message}`,
        });
      }
    });
  } else {
    form = 'yaml';
    if (!/^(controlPlane|resources|typeUrl|versionInfo):/m.test(text.slice(0, 4096))) return null;
    yamlDocuments(text).forEach((d, i) => {
      const read = readStructuredText(d);
      if (read.errors.length === 0) values.push({ value: read.value, path: `[${i}]` });
      else errors.push(...read.errors);
    });
  }
  const responses = values.filter((v) => isStatusResponse(v.value));
  if (responses.length === 0) return null;
  const rows = responses.flatMap((r) => rowsOfResponse(r.value, r.path, errors));
  rows.sort((a, b) => (a.proxy < b.proxy ? -1 : a.proxy > b.proxy ? 1 : 0));
  return { form, hasStates: true, rows, errors };
}

/** Any form of `istioctl proxy-status` output; null when the text is none. */
export function readProxyStatus(text: string): ProxyStatusRead | null {
  const start = /\S/.exec(text)?.[0];
  if (start === '{' || start !== 'N') {
    const machine = readMachine(text);
    if (machine) return machine;
  }
  return readTable(text);
}

/** The type columns in istioctl's order: CDS LDS EDS RDS first, then the rest sorted. */
function typeOrder(rows: readonly ProxyStatusRow[]): string[] {
  const all = new Set(rows.flatMap((r) => r.types.map((t) => t.type)));
  const core = ['CDS', 'LDS', 'EDS', 'RDS'].filter((t) => all.has(t));
  return [...core, ...[...all].filter((t) => !core.includes(t)).sort()];
}

function cellOf(t: XdsTypeState | undefined, hasStates: boolean): string {
  if (!t) return hasStates ? 'IGNORED' : '-';
  if (t.state === null) return hasStates ? '(empty)' : 'subscribed';
  return t.detail ? `${t.state} (${t.detail})` : t.state;
}

/** The rows as one table, a column per type (what `proxy-status --verbose` prints). */
export function proxyStatusCells(read: ProxyStatusRead): string[][] {
  const types = typeOrder(read.rows);
  return [
    ['NAME', 'CLUSTER', ...types, 'ISTIOD', 'VERSION'],
    ...read.rows.map((r) => [
      r.proxy,
      r.cluster ?? '-',
      ...types.map((t) =>
        cellOf(
          r.types.find((x) => x.type === t),
          read.hasStates,
        ),
      ),
      r.istiod ?? '-',
      r.version ?? '-',
    ]),
  ];
}

/** What an SRE looks for first: how many proxies are not in sync, and on which types. */
export function proxyStatusSummary(read: ProxyStatusRead): string {
  const n = read.rows.length;
  const head = `${n} prox${n === 1 ? 'y' : 'ies'}`;
  if (!read.hasStates)
    return `${head}: this table (istioctl 1.27+ without --verbose) names the types each proxy subscribes to, not whether they are in sync: the sync state is unknown (\`istioctl proxy-status --verbose\`, or \`-o json\` from 1.30, prints it)`;
  const with_ = (state: string) =>
    read.rows.filter((r) => r.types.some((t) => t.state === state)).length;
  const stale = read.rows.flatMap((r) =>
    r.types
      .filter((t) => t.state === 'STALE')
      .map((t) => `${r.proxy} ${t.type}${t.detail ? ` (${t.detail})` : ''}`),
  );
  const parts = [
    `${with_('STALE')} with a STALE type`,
    `${with_('NOT SENT')} with a type NOT SENT`,
    `${with_('ERROR')} with an ERROR`,
  ];
  const listed =
    stale.length > 0
      ? `; STALE: ${stale.slice(0, 10).join(', ')}${stale.length > 10 ? `, and ${stale.length - 10} more` : ''}`
      : '';
  const empty = read.rows.reduce((n, r) => n + r.types.filter((t) => t.state === null).length, 0);
  const unknown = empty > 0 ? `; ${empty} states printed empty: unknown` : '';
  return `${head}: ${parts.join(', ')}${listed}${unknown}`;
}
