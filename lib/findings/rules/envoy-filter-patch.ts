/**
 * IST0151-IST0155, as istioctl's envoyfilter.EnvoyPatchAnalyzer reports them, per patch of an
 * EnvoyFilter's configPatches (in order, stopping at the first entry without a `patch`):
 * - ADD on ROUTE_CONFIGURATION or HTTP_ROUTE: IST0153 (Envoy ignores it).
 * - REMOVE on ROUTE_CONFIGURATION or HTTP_ROUTE: IST0154 (ignored); on anything else it is a
 *   relative operation.
 * - REPLACE on anything but HTTP_FILTER, NETWORK_FILTER and VIRTUAL_HOST: IST0152; on those it
 *   is a relative operation.
 * - INSERT_BEFORE and INSERT_AFTER are relative operations.
 * A relative operation of a filter without a priority (0 or unset) is IST0151, or IST0155 when
 * an earlier patch that matches on a proxyVersion carries the same filter name (the patch
 * value's `name`, else, when the value has none, the listener filter chain's filter name).
 * Earlier means earlier in this filter, or in a filter read before it: istioctl walks the
 * EnvoyFilters in its store's order, which is not specified (a map), so across filters meshdx
 * takes the input order, one of the orders istioctl may take. Like istioctl, one finding per
 * filter and code (istioctl drops messages that read the same). A filter whose operation,
 * applyTo or priority is not of the API's shape is one istioctl cannot read: it is not judged.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, specOf, str } from './raw';

const CATALOG = defineCatalog('config', {
  relative: {
    code: 'IST0151',
    severity: 'warning',
    title: 'EnvoyFilterUsesRelativeOperation',
    description:
      'An EnvoyFilter without a priority uses a relative patch operation (INSERT_BEFORE, INSERT_AFTER, REPLACE, REMOVE): it only applies if the object it is relative to is already there, and without a priority the order filters apply in is their creation order, so a recreated or added filter can silently stop applying.',
    istio: {
      since: '1.11',
      why: "EnvoyFilter's priority, which the finding says is missing, is first in Istio 1.11.0's CRDs (relative patch operations in configPatches from 1.3); istioctl analyze reports IST0151 since 1.14.",
    },
  },
  replace: {
    code: 'IST0152',
    severity: 'error',
    title: 'EnvoyFilterUsesReplaceOperationIncorrectly',
    description:
      'An EnvoyFilter patch uses REPLACE on an object other than an HTTP filter, a network filter or a virtual host: istiod does not apply it, so the change the filter was written for never reaches the proxies.',
    istio: {
      since: '1.3',
      why: 'EnvoyFilter configPatches (the operation and applyTo the finding judges) are first in Istio 1.3.0; istioctl analyze reports IST0152 since 1.15.',
    },
  },
  add: {
    code: 'IST0153',
    severity: 'error',
    title: 'EnvoyFilterUsesAddOperationIncorrectly',
    description:
      'An EnvoyFilter patch uses ADD with applyTo ROUTE_CONFIGURATION or HTTP_ROUTE: istiod ignores ADD there, so the route change never reaches the proxies.',
    istio: {
      since: '1.3',
      why: 'EnvoyFilter configPatches (the operation and applyTo the finding judges) are first in Istio 1.3.0; istioctl analyze reports IST0153 since 1.15.',
    },
  },
  remove: {
    code: 'IST0154',
    severity: 'error',
    title: 'EnvoyFilterUsesRemoveOperationIncorrectly',
    description:
      'An EnvoyFilter patch uses REMOVE with applyTo ROUTE_CONFIGURATION or HTTP_ROUTE: istiod ignores REMOVE there, so the route meant to be removed stays.',
    istio: {
      since: '1.3',
      why: 'EnvoyFilter configPatches (the operation and applyTo the finding judges) are first in Istio 1.3.0; istioctl analyze reports IST0154 since 1.15.',
    },
  },
  relativeProxyVersion: {
    code: 'IST0155',
    severity: 'warning',
    title: 'EnvoyFilterUsesRelativeOperationWithProxyVersion',
    description:
      'An EnvoyFilter without a priority uses a relative patch operation on a filter name that another patch matches by proxyVersion: after an upgrade the proxyVersion match changes, the patches apply in another order and the relative one can stop applying.',
    istio: {
      since: '1.11',
      why: "EnvoyFilter's priority is first in Istio 1.11.0's CRDs; istioctl analyze reports IST0155 since 1.15.",
    },
  },
});
type Key = keyof typeof CATALOG.byKey;

const OPERATIONS = [
  'INVALID',
  'MERGE',
  'ADD',
  'REMOVE',
  'INSERT_BEFORE',
  'INSERT_AFTER',
  'INSERT_FIRST',
  'REPLACE',
] as const;
const APPLY_TO = [
  'INVALID',
  'LISTENER',
  'FILTER_CHAIN',
  'NETWORK_FILTER',
  'HTTP_FILTER',
  'ROUTE_CONFIGURATION',
  'VIRTUAL_HOST',
  'HTTP_ROUTE',
  'CLUSTER',
  'EXTENSION_CONFIG',
  'BOOTSTRAP',
  'LISTENER_FILTER',
] as const;
const ROUTE_OBJECTS: ReadonlySet<string> = new Set(['ROUTE_CONFIGURATION', 'HTTP_ROUTE']);
const REPLACEABLE: ReadonlySet<string> = new Set(['HTTP_FILTER', 'NETWORK_FILTER', 'VIRTUAL_HOST']);

/** An enum field as protobuf's JSON reads it: a name, a number, or unset; null when unreadable. */
function enumValue(v: unknown, names: readonly string[]): string | null {
  if (v === undefined || v === null) return names[0] ?? null;
  if (typeof v === 'string') return names.includes(v) ? v : null;
  if (typeof v === 'number' && Number.isInteger(v)) return names[v] ?? `#${v}`;
  return null;
}

/** spec.priority (int32, a number or a numeric string), 0 when unset; null when unreadable. */
function priorityOf(v: unknown): number | null {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

/** A JSON value with its object keys sorted: two values read the same when this is equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = obj(v);
  if (o === null) return JSON.stringify(v) ?? 'null';
  const keys = Object.keys(o).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

interface Patch {
  index: number;
  operation: string;
  applyTo: string;
  /** The filter name the proxyVersion check compares ('' when none). */
  name: string;
  proxyVersion: string;
}

/** One configPatches entry; null when istioctl could not read it, 'end' when it has no patch. */
function readPatch(entry: unknown, index: number): Patch | 'end' | null {
  const e = obj(entry);
  if (e === null) return null;
  const applyTo = enumValue(e.applyTo, APPLY_TO);
  if (applyTo === null) return null;
  const match = e.match === undefined || e.match === null ? {} : obj(e.match);
  if (match === null) return null;
  if (match.proxy !== undefined && match.proxy !== null && obj(match.proxy) === null) return null;
  const version = obj(match.proxy)?.proxyVersion;
  if (version !== undefined && version !== null && typeof version !== 'string') return null;
  const proxyVersion = str(version) ?? '';
  if (e.patch === undefined || e.patch === null) return 'end';
  const patch = obj(e.patch);
  if (patch === null) return null;
  const operation = enumValue(patch.operation, OPERATIONS);
  if (operation === null) return null;
  let name = '';
  if (patch.value !== undefined && patch.value !== null) {
    const value = obj(patch.value);
    if (value === null) return null;
    // a value's name is compared as the value it is (istioctl compares its text form); a
    // filter chain's filter name as a plain string: the two never read the same
    name =
      'name' in value
        ? `\u0000${canonical(value.name)}`
        : (str(obj(obj(obj(match.listener)?.filterChain)?.filter)?.name) ?? '');
  }
  return { index, operation, applyTo, name, proxyVersion };
}

/** The patches istioctl looks at (up to the first without a patch); null when unreadable. */
function readPatches(spec: Record<string, unknown>): Patch[] | null {
  const out: Patch[] = [];
  let ended = false;
  const entries = spec.configPatches;
  if (entries !== undefined && entries !== null && !Array.isArray(entries)) return null;
  for (const [i, entry] of list(entries).entries()) {
    const p = readPatch(entry, i);
    if (p === null) return null;
    if (p === 'end') ended = true;
    else if (!ended) out.push(p);
  }
  return out;
}

/** What a patch is reported as, given the filter names earlier patches matched by proxyVersion. */
function verdict(p: Patch, priority: number, versioned: ReadonlySet<string>): Key | null {
  let relative = false;
  if (p.operation === 'ADD') {
    if (ROUTE_OBJECTS.has(p.applyTo)) return 'add';
  } else if (p.operation === 'REMOVE') {
    if (ROUTE_OBJECTS.has(p.applyTo)) return 'remove';
    relative = true;
  } else if (p.operation === 'REPLACE') {
    if (!REPLACEABLE.has(p.applyTo)) return 'replace';
    relative = true;
  } else if (p.operation === 'INSERT_BEFORE' || p.operation === 'INSERT_AFTER') {
    relative = true;
  }
  if (!relative || priority !== 0) return null;
  return versioned.has(p.name) ? 'relativeProxyVersion' : 'relative';
}

const FIX: Readonly<Record<Key, string>> = {
  relative:
    'Set spec.priority on the EnvoyFilter (or use INSERT_FIRST or ADD with a filterClass), so the order it applies in does not depend on when the filters were created.',
  replace:
    'Use REPLACE only with applyTo HTTP_FILTER, NETWORK_FILTER or VIRTUAL_HOST; change other objects with MERGE.',
  add: 'ADD does nothing on ROUTE_CONFIGURATION or HTTP_ROUTE: change the route with MERGE, or ADD a VIRTUAL_HOST.',
  remove:
    'REMOVE does nothing on ROUTE_CONFIGURATION or HTTP_ROUTE: change the route with MERGE, or REMOVE its VIRTUAL_HOST.',
  relativeProxyVersion:
    'Set spec.priority on the EnvoyFilter (or use INSERT_FIRST or ADD): with a proxyVersion match the order the patches apply in changes at an upgrade.',
};

function finding(ef: KubeObject, key: Key, patches: Patch[], priority: number): Finding {
  const subject: Finding['subject'] = { kind: 'EnvoyFilter', name: ef.metadata.name };
  if (ef.metadata.namespace !== undefined) subject.namespace = ef.metadata.namespace;
  return {
    code: CATALOG.code[key],
    severity: CATALOG.byKey[key].severity,
    subject,
    evidence: {
      patches: patches
        .map((p) => `configPatches[${p.index}] ${p.operation} ${p.applyTo}`)
        .join(', '),
      priority,
    },
    fix: { why: FIX[key] },
  };
}

export const ENVOY_FILTER_PATCH = defineRule({
  id: 'envoy-filter-patch',
  analyzer: 'envoyfilter.EnvoyPatchAnalyzer',
  catalog: CATALOG,
  claims: CATALOG.entries.map((e) => ({ code: e.code, kinds: ['EnvoyFilter'] })),
  reads: ['EnvoyFilter'],
  check(ctx) {
    const out: Finding[] = [];
    // filter names matched by proxyVersion so far, across filters in the order they are read
    const versioned = new Set<string>();
    for (const ef of ctx.objects('EnvoyFilter')) {
      const spec = specOf(ef);
      if (spec === null) continue;
      const priority = priorityOf(spec.priority);
      const patches = readPatches(spec);
      if (priority === null || patches === null) continue;
      const byKey = new Map<Key, Patch[]>();
      for (const p of patches) {
        const key = verdict(p, priority, versioned);
        if (key !== null) byKey.set(key, [...(byKey.get(key) ?? []), p]);
        if (p.proxyVersion !== '') versioned.add(p.name);
      }
      for (const [key, ps] of byKey) out.push(finding(ef, key, ps, priority));
    }
    return out;
  },
});
