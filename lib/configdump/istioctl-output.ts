/**
 * Every form of istioctl's Envoy outputs `meshdx clusters` reads beside config dumps, told
 * apart by their shape: the `proxy-config cluster|endpoint|listener|route -o json|yaml` lists,
 * the `proxy-config cluster` and `endpoint` tables, Envoy's `/clusters` text, and
 * `proxy-status` (table or `-o json|yaml`). `what` names the form, for the user.
 */
import { endpointReport, loadAssignmentReport, type EndpointReport } from './endpoints';
import { readClustersText, isClustersText } from './clusters-text';
import {
  ISTIOCTL_LIST_COMMAND,
  readIstioctlList,
  type ListenerListRow,
  type RouteListRow,
} from './istioctl-lists';
import {
  proxyConfigHeaderKind,
  readClusterTableText,
  readEndpointTableText,
} from './istioctl-text';
import { isProxyStatusHeader, readProxyStatus, type ProxyStatusRead } from './proxy-status';
import { readStructuredText } from './text';
import type { ClusterRow, DumpProblem } from './types';

export type IstioctlOutput =
  | { kind: 'clusters'; what: string; rows: ClusterRow[]; errors: DumpProblem[] }
  | { kind: 'endpoints'; what: string; report: EndpointReport; errors: DumpProblem[] }
  | { kind: 'listeners'; what: string; rows: ListenerListRow[]; errors: DumpProblem[] }
  | { kind: 'routes'; what: string; rows: RouteListRow[]; errors: DumpProblem[] }
  | { kind: 'proxy-status'; what: string; status: ProxyStatusRead; errors: DumpProblem[] };

/** A parsed JSON or YAML list istioctl printed; null when the value is none. */
function fromList(value: unknown, syntax: 'json' | 'yaml'): IstioctlOutput | null {
  const list = readIstioctlList(value);
  if (!list) return null;
  const what = `\`${ISTIOCTL_LIST_COMMAND[list.kind].replace('json|yaml', syntax)}\` output`;
  if (list.kind === 'cluster')
    return { kind: 'clusters', what, rows: list.rows, errors: list.errors };
  if (list.kind === 'listener')
    return { kind: 'listeners', what, rows: list.rows, errors: list.errors };
  if (list.kind === 'route') return { kind: 'routes', what, rows: list.rows, errors: list.errors };
  const report =
    list.kind === 'endpoint'
      ? endpointReport('', list.entries)
      : loadAssignmentReport(list.entries);
  return { kind: 'endpoints', what, report, errors: list.errors };
}

/**
 * Reads a text as one of istioctl's outputs (see the module's note); null when it is none of
 * them (a config dump, a ztunnel output, or something else).
 */
export function readIstioctlOutput(text: string): IstioctlOutput | null {
  const start = /\S/.exec(text)?.[0];
  if (start === '[' || start === '-') {
    const read = readStructuredText(text);
    if (read.errors.length === 0) {
      const listed = fromList(read.value, read.syntax);
      if (listed) return listed;
    }
  }
  if (isClustersText(text)) {
    const { statuses, errors } = readClustersText(text);
    const report = endpointReport('', statuses);
    return { kind: 'endpoints', what: "Envoy's /clusters text", report, errors };
  }
  const status = readProxyStatus(text);
  if (status) {
    const what = `\`istioctl proxy-status\` ${status.form === 'table' ? 'table' : `-o ${status.form}`} output`;
    return { kind: 'proxy-status', what, status, errors: status.errors };
  }
  const clusters = readClusterTableText(text);
  if (clusters)
    return {
      kind: 'clusters',
      what: `the \`istioctl proxy-config cluster\` table${clusters.hasDestinationRule ? '' : ' (before 1.8: no DESTINATION RULE column)'}`,
      rows: clusters.rows,
      errors: clusters.errors,
    };
  const endpoints = readEndpointTableText(text);
  if (endpoints)
    return {
      kind: 'endpoints',
      what: `the \`istioctl proxy-config endpoint\` table${endpoints.report.source === 'config-dump' ? ' (of a config dump)' : ''}`,
      report: endpoints.report,
      errors: endpoints.errors,
    };
  return null;
}

/** Keys that tell the list istioctl printed, from the first entries (camelCase or snake_case). */
const LIST_KEYS: [RegExp, string][] = [
  [/"?(hostStatuses|host_statuses)"?\s*:/, '`istioctl proxy-config endpoint -o json|yaml` output'],
  [
    /"?(clusterName|cluster_name)"?\s*:/,
    '`istioctl proxy-config endpoint --file -o json|yaml` output',
  ],
  [/"?(virtualHosts|virtual_hosts)"?\s*:/, '`istioctl proxy-config route -o json|yaml` output'],
  [
    /"?(connectTimeout|connect_timeout)"?\s*:/,
    '`istioctl proxy-config cluster -o json|yaml` output',
  ],
  [/"?(filterChains|filter_chains)"?\s*:/, '`istioctl proxy-config listener -o json|yaml` output'],
];

/**
 * Which istioctl output a text looks like, from its first 64 KiB only (to name the kind of a
 * file given to another command, without parsing it whole); null when none.
 */
export function sniffIstioctlOutput(text: string): string | null {
  const head = text.slice(0, 64 * 1024);
  const start = /\S/.exec(head)?.[0];
  if (start === '[' || start === '-') {
    const found = LIST_KEYS.find(([re]) => re.test(head));
    if (found) return found[1];
  }
  if (start === '{' && /"resources"/.test(head) && /ClientConfig/.test(head))
    return '`istioctl proxy-status -o json` output';
  if (isClustersText(head)) return "Envoy's /clusters text";
  const lines = head.split('\n', 40);
  if (lines.some(isProxyStatusHeader)) return '`istioctl proxy-status` output';
  for (const l of lines) {
    const k = proxyConfigHeaderKind(l);
    if (k) return `the \`istioctl proxy-config ${k}\` table`;
  }
  return null;
}
