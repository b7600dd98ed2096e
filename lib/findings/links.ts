/**
 * Where a finding is seen: the view (and its row) that shows the objects a finding is about, as
 * a path and its query, for the Findings view to link to (with the cluster context added by
 * linkTo). Made from the finding's domain (its catalog entry's), its subject and its evidence;
 * the pod page of a pod subject is the Object column's own link (PodLink). Pure.
 */
import { podKey, podKeyOf, tryParsePodRef } from '../refs/pod-ref';
import { TEMPLATE_KINDS } from './object-shape';
import type { FindingSubject } from './types';

export interface FindingLink {
  /** The view's name, the text of the link. */
  label: 'Timelines' | 'Incidents' | 'Proxies' | 'Scoping';
  path: '/timelines' | '/incidents' | '/proxies' | '/scoping';
  query: URLSearchParams;
}

interface LinkedFinding {
  code: string;
  subject: FindingSubject;
  evidence: Record<string, string | number | boolean | null>;
}

/**
 * The namespace a finding is about: its subject's namespace, or the Namespace it is about. A
 * subject of neither (the scoping analysis' observation window) is in none.
 */
export function findingNamespace(subject: FindingSubject): string | undefined {
  if (subject.namespace) return subject.namespace;
  return subject.kind === 'Namespace' ? subject.name : undefined;
}

/** The `ns/name` of a pod named by the evidence, when it is one. */
function podOf(v: unknown): string | undefined {
  const ref = typeof v === 'string' ? tryParsePodRef(v) : null;
  return ref === null ? undefined : podKeyOf(ref);
}

const iso = (v: unknown): string | undefined =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined;

function query(entries: Record<string, string | undefined>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(entries)) if (v !== undefined && v !== '') q.set(k, v);
  return q;
}

/** The codes about a proxy itself (its readiness, the endpoints its xDS holds): its Proxies row. */
const PROXY_CODES: ReadonlySet<string> = new Set(['MDX0001', 'MDX0407']);

/**
 * The views that show a finding: a timeline finding its workload's Timelines rows with its
 * example pod open, an incident finding the Incidents window of its service (or client pod),
 * a scoping finding its namespace (and workload) on Scoping, a proxy finding its Proxies row.
 */
export function findingLinks(f: LinkedFinding, domain: string | undefined): FindingLink[] {
  const ns = findingNamespace(f.subject);
  const isPod = f.subject.kind === 'Pod' && ns !== undefined;
  const pod = isPod ? podKey(ns, f.subject.name) : undefined;
  const workload = TEMPLATE_KINDS.has(f.subject.kind) ? f.subject.name : undefined;
  const out: FindingLink[] = [];
  if (domain === 'timeline') {
    out.push({
      label: 'Timelines',
      path: '/timelines',
      query: query({ namespace: ns, workload, pod: pod ?? podOf(f.evidence.examplePod) }),
    });
  }
  if (domain === 'incidents') {
    out.push({
      label: 'Incidents',
      path: '/incidents',
      query: query({
        namespace: ns,
        service: f.subject.kind === 'Service' ? f.subject.name : undefined,
        client: pod,
        from: iso(f.evidence.from),
        to: iso(f.evidence.to),
      }),
    });
  }
  if (domain === 'scoping' || f.subject.kind === 'Sidecar') {
    out.push({ label: 'Scoping', path: '/scoping', query: query({ namespace: ns, workload }) });
  }
  if (PROXY_CODES.has(f.code) || (domain === 'scoping' && (pod !== undefined || workload))) {
    out.push({
      label: 'Proxies',
      path: '/proxies',
      query: query({ namespace: ns, workload, proxy: pod }),
    });
  }
  return out;
}
