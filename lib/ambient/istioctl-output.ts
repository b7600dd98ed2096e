/**
 * What `istioctl ztunnel-config` (alias `zc`) prints, read into the ztunnel model the dashboard
 * uses (lib/configdump/ztunnel.ts ZtunnelDump, which lib/ambient/ztunnel.ts reads as its
 * ZtunnelConfig): the form people paste instead of the admin dump.
 *
 * FIELD NOTES (istio/istio istioctl/pkg/writer/ztunnel/configdump, api.go, configdump.go):
 * - `-o json|yaml` of `workloads`, `services`, `policies`, `certificates` is a LIST of the
 *   dump's entries (same keys as /config_dump: workloads have workloadIps, uid, protocol;
 *   services hostname and vips; policies action and scope; certificates identity and state).
 * - `all -o json` prints ztunnel's /config_dump unchanged (PrintFullDump; `-o yaml` is the
 *   same converted to YAML): a ztunnel dump, read by lib/configdump/ztunnel.ts.
 * - The tables, one or the four of `all`, are read by ./istioctl-tables.ts.
 */
import { isObject } from '../configdump/fields';
import { readStructuredText } from '../configdump/text';
import { readZtunnelDump, type ZtunnelParse } from '../configdump/ztunnel';
import { readZtunnelTables, tableHeaderKind, type ZtunnelTableKind } from './istioctl-tables';

export type ZtunnelOutputKind = ZtunnelTableKind;

export interface ZtunnelOutputRead {
  /** Which `istioctl ztunnel-config` command printed it (`all`: several tables), and how. */
  command: ZtunnelOutputKind | 'all';
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

/**
 * Any form `istioctl ztunnel-config workloads|services|policies|certificates|all` prints but
 * the whole dump: a JSON or YAML list, or tables. Null when the text is none of these (the
 * dump of `all -o json|yaml` is read by lib/configdump/ztunnel.ts).
 */
export function readZtunnelConfigOutput(text: string): ZtunnelOutputRead | null {
  const start = /\S/.exec(text)?.[0];
  if (start === '[' || start === '-') {
    const read = readStructuredText(text);
    if (read.errors.length > 0) return null;
    return readZtunnelList(read.value, read.syntax);
  }
  const tables = readZtunnelTables(text);
  if (!tables) return null;
  const command = tables.kinds.length === 1 ? (tables.kinds[0] as ZtunnelTableKind) : 'all';
  return { command, form: 'table', parse: tables.parse };
}

/** How much of a text `sniffZtunnelOutput` looks at. */
const SNIFF_CHARS = 64 * 1024;

/**
 * Which `istioctl zc` output a text looks like, from its first 64 KiB only (for naming the
 * kind of a file given to another command, without parsing it whole): the keys of a list's
 * first entries, a table header, or a whole dump's top-level keys.
 */
export function sniffZtunnelOutput(
  text: string,
): { command: ZtunnelOutputKind | 'all'; form: 'json' | 'yaml' | 'table' } | null {
  const head = text.slice(0, SNIFF_CHARS);
  const start = /\S/.exec(head)?.[0];
  if (start === '[' || start === '-') {
    const json = start === '[';
    const keys = json
      ? [...head.matchAll(/"([A-Za-z]+)"\s*:/g)]
      : [...head.matchAll(/^[-\s]*([A-Za-z]+):/gm)];
    const entry = Object.fromEntries(keys.slice(0, 200).map((m) => [m[1], true]));
    const kind = entryKind(entry);
    return kind ? { command: kind, form: json ? 'json' : 'yaml' } : null;
  }
  if (start === '{') {
    // `all -o json`: a ztunnel dump (its section names; an Envoy dump has `configs`)
    const keys = new Set([...head.matchAll(/"([A-Za-z]+)"\s*:/g)].map((m) => m[1]));
    const known = ['workloads', 'services', 'policies', 'certificates', 'workloadState'];
    // (a big dump's workloads may fill the first 64 KiB: their own keys tell them then)
    const sections = known.filter((k) => keys.has(k)).length;
    const ztunnel = keys.has('workloads') && (sections >= 2 || keys.has('workloadIps'));
    return ztunnel && !keys.has('configs') ? { command: 'all', form: 'json' } : null;
  }
  const kinds = new Set(
    head
      .split('\n', 400)
      .map((l) => tableHeaderKind(l))
      .filter((k): k is ZtunnelTableKind => k !== null && k !== 'connections'),
  );
  if (kinds.size === 0) return null;
  return { command: kinds.size === 1 ? ([...kinds][0] as ZtunnelTableKind) : 'all', form: 'table' };
}
