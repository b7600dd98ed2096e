/**
 * A kube-state-metrics (v2) style exposition of the simulator's pods, computed from the store at
 * scrape time: kube_pod_info, kube_pod_created, kube_pod_deletion_timestamp and
 * kube_pod_status_phase, with the label names kube-state-metrics uses, in the Prometheus text
 * format 0.0.4. Pure: no I/O.
 */
import { podSpec } from '../store/podshape';
import type { Pod, PodSpec } from '../../../lib/kube/types';

export const KSM_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The phases kube-state-metrics always reports (one series each, 1 for the current one). */
export const KSM_PHASES = ['Pending', 'Succeeded', 'Failed', 'Unknown', 'Running'] as const;

type Labels = readonly (readonly [string, string])[];

interface Family {
  name: string;
  help: string;
  samples: { labels: Labels; value: number }[];
}

/** Label value escaping of the text format: backslash, double quote and line feed. */
export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

function sampleLine(name: string, labels: Labels, value: number): string {
  const body = labels.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',');
  return `${name}{${body}} ${formatValue(value)}`;
}

/** Unix seconds of an RFC 3339 time, or null when absent or unparsable. */
function unixSeconds(t: string | undefined): number | null {
  if (t === undefined) return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** Fields kube-state-metrics reads that meshdx's wire types do not model; narrowed here. */
function extraSpec(spec: PodSpec): { priorityClass: string; hostNetwork: boolean } {
  const raw: Record<string, unknown> = { ...spec };
  const pc = raw.priorityClassName;
  return {
    priorityClass: typeof pc === 'string' ? pc : '',
    hostNetwork: raw.hostNetwork === true,
  };
}

/** kube-state-metrics' created_by: the controller owner reference, else "<none>". */
function createdBy(pod: Pod): { kind: string; name: string } {
  const refs = pod.metadata.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller === true) ?? refs[0];
  return ref ? { kind: ref.kind, name: ref.name } : { kind: '<none>', name: '<none>' };
}

/** The three identity labels every kube_pod_* series carries. */
function podLabels(pod: Pod): Labels {
  return [
    ['namespace', pod.metadata.namespace ?? ''],
    ['pod', pod.metadata.name],
    ['uid', pod.metadata.uid ?? ''],
  ];
}

function infoLabels(pod: Pod): Labels {
  const by = createdBy(pod);
  const extra = extraSpec(podSpec(pod));
  return [
    ...podLabels(pod),
    ['host_ip', pod.status?.hostIP ?? ''],
    ['pod_ip', pod.status?.podIP ?? ''],
    ['node', podSpec(pod).nodeName ?? ''],
    ['created_by_kind', by.kind],
    ['created_by_name', by.name],
    ['priority_class', extra.priorityClass],
    ['host_network', String(extra.hostNetwork)],
  ];
}

/** The families for a list of pods, in kube-state-metrics' order of appearance. */
export function ksmFamilies(pods: readonly Pod[]): Family[] {
  const info: Family = {
    name: 'kube_pod_info',
    help: '[STABLE] Information about pod.',
    samples: [],
  };
  const created: Family = {
    name: 'kube_pod_created',
    help: '[STABLE] Unix creation timestamp',
    samples: [],
  };
  const deletion: Family = {
    name: 'kube_pod_deletion_timestamp',
    help: 'Unix deletion timestamp',
    samples: [],
  };
  const phase: Family = {
    name: 'kube_pod_status_phase',
    help: '[STABLE] The pods current phase.',
    samples: [],
  };
  for (const pod of pods) {
    const id = podLabels(pod);
    info.samples.push({ labels: infoLabels(pod), value: 1 });
    const c = unixSeconds(pod.metadata.creationTimestamp);
    if (c !== null) created.samples.push({ labels: id, value: c });
    const d = unixSeconds(pod.metadata.deletionTimestamp);
    if (d !== null) deletion.samples.push({ labels: id, value: d });
    const current = pod.status?.phase;
    if (current !== undefined && current !== '') {
      for (const p of KSM_PHASES)
        phase.samples.push({ labels: [...id, ['phase', p]], value: p === current ? 1 : 0 });
    }
  }
  return [info, created, deletion, phase];
}

/** The text exposition (format 0.0.4) of the pods: HELP and TYPE lines, then samples. */
export function renderKsmMetrics(pods: readonly Pod[]): string {
  const out: string[] = [];
  for (const f of ksmFamilies(pods)) {
    out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`);
    for (const s of f.samples) out.push(sampleLine(f.name, s.labels, s.value));
  }
  return `${out.join('\n')}\n`;
}
