/**
 * MDX0311 (meshdx's own, beyond istioctl; istio/istio#59376): a Sidecar that sets no egress
 * (the field missing, or an empty list). istiod gives such a Sidecar one egress listener of
 * `*\/*` (pilot/pkg/model/sidecar.go, initSidecarScopeInternalIndexes: `len(egress) == 0`),
 * as Istio's Sidecar reference says ("If omitted, Istio will autoconfigure the sidecar to be
 * able to reach every service in the mesh that is visible to this namespace"). And a Sidecar
 * is never merged with another: the pods it applies to get its scope instead of the namespace
 * default's, or the mesh default's in the root namespace (push_context.go, doGetSidecarScope).
 * So a Sidecar written for its ingress, outboundTrafficPolicy or connection pool takes its
 * pods out of the egress restriction of the default above it, and scopes nothing itself.
 *
 * Reported on every Sidecar without egress, at the level it applies to:
 * - with a workloadSelector: the pods it selects lose the namespace default's egress (or the
 *   mesh default's, when the namespace has none);
 * - without one (a namespace default): the namespace loses the mesh default's egress, and
 *   scopes nothing, as a namespace with no default Sidecar (MDX0301, which does not fire once a
 *   default exists);
 * - the mesh default (the root namespace's, without selector): every namespace without its
 *   own default Sidecar gets every service.
 * A workloadSelector without labels counts as none, as every Sidecar check of meshdx counts it
 * (Istio applies it to every pod of the namespace, ahead of the default: the same pods). Not
 * reported: a Sidecar whose only pods are in the ambient mesh, or a default in an ambient
 * namespace (IST0167: it applies to nothing), and a malformed Sidecar (MDX0002, left out of
 * every check), and a Sidecar that sets nothing but its selector: no ingress, no
 * outboundTrafficPolicy, no inboundConnectionPool. The webhook refuses that one ("sidecar: empty
 * configuration provided", pkg/config/validation ValidateSidecar): it is not silently unscoped
 * but invalid, and a cluster cannot hold it.
 *
 * The fix keeps what the Sidecar sets and adds the egress every proposal of the Scoping view
 * starts from (its own namespace and the control plane's, lib/scoping/generate.ts), plus the
 * hosts of the default it overrides; the namespaces the workload calls are observed traffic,
 * which the Scoping view adds and a rule on configuration cannot know.
 */
import type { Pod, Sidecar } from '../../kube/types';
import { objectKeyOf, scopedHost } from '../../refs/object-ref';
import { buildSidecar, sidecarYaml, standardHosts } from '../../scoping/generate';
import { labelsMatch, selectSidecar } from '../../scoping/visibility';
import { defineCatalog } from '../catalog';
import { AMBIENT_REDIRECTION_ANNOTATION } from '../../dataplane/mode';
import { ambientNamespaces, selectablePods } from '../screen';
import type { Finding } from '../types';
import { defineRule } from './rule';

const CATALOG = defineCatalog('scoping', {
  noEgress: {
    code: 'MDX0311',
    severity: 'warning',
    title: 'SidecarWithoutEgress',
    description:
      'A Sidecar sets no egress (it sets only ingress, outboundTrafficPolicy or a connection pool, or egress is an empty list): Istio gives the proxies it applies to every service of the mesh (egress */*), and a Sidecar is never merged with the default above it, so the pods it selects lose the egress of their namespace default Sidecar (or of the mesh default). Their proxies carry the configuration of the whole mesh, and the restriction meant for them does not hold.',
    istio: {
      since: '1.9',
      why: 'Istio 1.9 made Sidecar egress optional, defaulting to */* (istio/istio#28513, pilot/pkg/model/sidecar.go); before it the webhook refused a Sidecar without egress.',
    },
  },
});

const SHOWN_PODS = 5;

const nsOf = (o: { metadata: { namespace?: string } }): string => o.metadata.namespace ?? 'default';
const selectorOf = (s: Sidecar): Record<string, string> => s.spec.workloadSelector?.labels ?? {};
const hasSelector = (s: Sidecar): boolean => Object.keys(selectorOf(s)).length > 0;
const egressHosts = (s: Sidecar): string[] =>
  (s.spec.egress ?? []).flatMap((e) => (Array.isArray(e.hosts) ? e.hosts : []));

/** A pod as the Sidecar selection reads it: namespace and labels. */
const asPod = (namespace: string, labels: Record<string, string> = {}): Pod => ({
  kind: 'Pod',
  metadata: { name: '', namespace, labels },
  spec: { containers: [] },
});

const present = (v: unknown): boolean =>
  v !== undefined && v !== null && (!Array.isArray(v) || v.length > 0);

/** What Istio's validation asks of a Sidecar that has no egress: something else to do. */
function acceptedWithoutEgress(s: Sidecar): boolean {
  const spec = s.spec as Record<string, unknown>;
  return (
    present(spec.ingress) ||
    present(spec.outboundTrafficPolicy) ||
    present(spec.inboundConnectionPool)
  );
}

/** The spec fields the Sidecar sets besides its selector (what it was written for). */
function sets(s: Sidecar): string | null {
  const spec = s.spec as Record<string, unknown>;
  const fields = Object.keys(spec).filter(
    (k) => k !== 'workloadSelector' && k !== 'egress' && present(spec[k]),
  );
  return fields.length === 0 ? null : fields.sort().join(', ');
}

/** The egress to propose: own namespace, the control plane, then what the default allowed. */
function proposedHosts(
  s: Sidecar,
  mesh: boolean,
  root: string,
  dropped: string[],
): { hosts: string[]; carried: boolean } {
  const ns = nsOf(s);
  // in the mesh default `.` is each proxy's own namespace: the control plane must be named
  const base = mesh ? ['./*', scopedHost(root, '*')] : standardHosts(ns, [], root);
  const same = new Set([...base, scopedHost(ns, '*')]);
  const extra = dropped
    .map((h) => h.trim())
    .filter((h) => h !== '' && h !== '*/*' && h !== '~/*' && !same.has(h));
  return { hosts: [...base, ...new Set(extra)], carried: extra.length > 0 };
}

function podList(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const shown = names.slice(0, SHOWN_PODS).join(', ');
  return names.length > SHOWN_PODS ? `${shown} (+${names.length - SHOWN_PODS} more)` : shown;
}

export const SIDECAR_NO_EGRESS = defineRule({
  id: 'sidecar-no-egress',
  analyzer: null,
  catalog: CATALOG,
  claims: [],
  reads: ['Sidecar', 'Pod', 'Namespace'],
  check(ctx) {
    const root = ctx.rootNamespace;
    const sidecars = ctx.screened.sidecars;
    const ambientNs = ambientNamespaces(ctx.screened);
    const pods = selectablePods(ctx.screened);
    const withoutEgress = sidecars.filter(
      (s) => (s.spec.egress ?? []).length === 0 && acceptedWithoutEgress(s),
    );
    if (withoutEgress.length === 0) return [];
    const reported = new Set(withoutEgress);
    const byNs = new Map<string, Sidecar[]>();
    for (const s of sidecars) {
      const list = byNs.get(nsOf(s));
      if (list === undefined) byNs.set(nsOf(s), [s]);
      else list.push(s);
    }
    // the Sidecar istiod applies to a pod of `ns` with these labels (its namespace's, the root's)
    const applying = (ns: string, labels?: Record<string, string>): Sidecar | undefined =>
      selectSidecar(
        asPod(ns, labels),
        ns === root ? (byNs.get(ns) ?? []) : [...(byNs.get(ns) ?? []), ...(byNs.get(root) ?? [])],
        root,
      ).sidecar;
    const sidecarless = (p: (typeof pods)[number]): boolean =>
      p.metadata.annotations?.[AMBIENT_REDIRECTION_ANNOTATION] === 'enabled' ||
      ambientNs.has(nsOf(p));
    const applied = new Map<Sidecar, string[]>();
    for (const p of pods) {
      if (sidecarless(p)) continue;
      const s = applying(nsOf(p), p.metadata.labels);
      if (s === undefined || !reported.has(s)) continue;
      const names = applied.get(s);
      if (names === undefined) applied.set(s, [p.metadata.name]);
      else names.push(p.metadata.name);
    }
    const out: Finding[] = [];
    for (const s of withoutEgress) {
      const ns = nsOf(s);
      const selector = hasSelector(s);
      const level = selector ? 'workload' : ns === root ? 'mesh' : 'namespace';
      // IST0167's: a Sidecar that applies only to pods without a sidecar does nothing
      if (!selector && ambientNs.has(ns)) continue;
      if (selector) {
        const matching = pods.filter(
          (p) => nsOf(p) === ns && labelsMatch(selectorOf(s), p.metadata.labels),
        );
        if (matching.length > 0 && matching.every(sidecarless)) continue;
      }
      const names = [...(applied.get(s) ?? [])].sort();
      // what its pods would get without it: the namespace default, else the mesh default
      const above = level === 'mesh' ? undefined : applying(level === 'workload' ? ns : root);
      const overridden = above === s ? undefined : above;
      const dropped = overridden === undefined ? [] : egressHosts(overridden);
      const overrides = overridden === undefined ? null : objectKeyOf(overridden);
      const { hosts, carried } = proposedHosts(s, level === 'mesh', root, dropped);
      out.push({
        code: CATALOG.code.noEgress,
        severity: CATALOG.byKey.noEgress.severity,
        subject: { kind: 'Sidecar', namespace: ns, name: s.metadata.name },
        evidence: {
          appliesTo:
            level === 'workload'
              ? 'the pods it selects'
              : level === 'namespace'
                ? `namespace ${ns}`
                : 'every namespace without its own default Sidecar',
          selector: selector
            ? Object.entries(selectorOf(s))
                .map(([k, v]) => `${k}=${v}`)
                .join(',')
            : null,
          egress: s.spec.egress === undefined || s.spec.egress === null ? 'missing' : 'empty list',
          sets: sets(s),
          pods: podList(names),
          podCount: names.length,
          overrides,
          overriddenEgress: dropped.length > 0 ? dropped.join(', ') : null,
        },
        fix: {
          why:
            (level === 'mesh'
              ? 'Without egress the mesh default gives every proxy without a Sidecar of its own every service of the mesh (*/*).'
              : `Without egress Istio gives ${level === 'workload' ? 'the pods it selects' : 'the namespace'} every service of the mesh (*/*)${overrides === null ? '' : ` instead of the egress of ${overrides}`}.`) +
            ` Set its egress: at least its own namespace (./*) and the control plane (${scopedHost(root, '*')})` +
            (carried ? `, with the hosts ${overrides ?? 'the default'} allowed` : '') +
            ', plus the namespaces its workloads call (the Scoping view proposes them from observed traffic).',
          yaml: sidecarYaml(
            buildSidecar({ name: s.metadata.name, namespace: ns, hosts, replaces: s }),
          ),
        },
      });
    }
    return out;
  },
});
