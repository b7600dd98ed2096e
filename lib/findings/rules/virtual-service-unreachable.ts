/**
 * IST0130 VirtualServiceUnreachableRule and IST0131 VirtualServiceIneffectiveMatch, as istioctl's
 * schema validation of VirtualServices (schema.ValidationAnalyzer.VirtualService, the warnings of
 * pkg/config/validation's ValidateVirtualService) reports them. Envoy takes the first route
 * whose match fits, so in each of spec.http, spec.tcp and spec.tls:
 * - a rule after a rule without matches is never used (IST0130 "only the last rule can have no
 *   matches" for a second match-less rule; "route without matches defined before" once per
 *   match of a later rule);
 * - a match equal to a match of an earlier rule (HTTP match names aside) is never used
 *   (IST0131), and a rule all of whose matches are such is never used (IST0130);
 * - HTTP only: a match with a URI prefix that an earlier match (of any rule, or of the same
 *   rule) covers is never used (IST0131): its prefix starts with the earlier one's, the same
 *   port, and method, authority, headers, query params and withoutHeaders the same or, as
 *   istioctl compares them, the earlier one's starting with the later one's (a match without
 *   method is a GET, as istioctl takes it).
 * Matches are compared as istioctl serializes them: fields left at their zero value (empty,
 * false, 0, an empty map) are as absent. Only these two codes of the schema validation are
 * claimed; its other messages (IST0106 SchemaValidationError, SchemaWarning) are not judged.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, specOf, str, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  unreachableRule: {
    code: 'IST0130',
    severity: 'warning',
    title: 'VirtualServiceUnreachableRule',
    description:
      'A VirtualService rule is never used: an earlier rule without matches takes all traffic, or every match of the rule is already taken by earlier rules. Whatever it routes to, retries or rewrites never applies.',
    istio: {
      since: '1.0',
      why: "VirtualService HTTP rules and matches are Istio 1.0's; istioctl analyze reports IST0130 since 1.8.",
    },
  },
  ineffectiveMatch: {
    code: 'IST0131',
    severity: 'info',
    title: 'VirtualServiceIneffectiveMatch',
    description:
      'A match of a VirtualService rule is never used: an earlier match is the same or covers it (a shorter URI prefix), so requests it was written for take the earlier route.',
    istio: {
      since: '1.0',
      why: "VirtualService HTTP rules and matches are Istio 1.0's; istioctl analyze reports IST0131 since 1.8.",
    },
  },
});

const MAP_FIELDS: ReadonlySet<string> = new Set([
  'headers',
  'queryParams',
  'withoutHeaders',
  'sourceLabels',
]);

/** A value with its zero-valued fields dropped and keys sorted, as a comparable text. */
function canonical(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => canonical(x) ?? null);
  const o = obj(v);
  if (o !== null) {
    const entries = Object.keys(o)
      .sort()
      .flatMap((k) => {
        const c = canonical(o[k], k);
        return c === undefined ? [] : [[k, c] as const];
      });
    if (entries.length === 0 && MAP_FIELDS.has(key)) return undefined;
    return Object.fromEntries(entries);
  }
  if (v === null || v === undefined || v === false || v === 0 || v === '') return undefined;
  return v;
}

const matchText = (match: unknown, http: boolean): string => {
  const o = obj(match);
  if (o === null) return JSON.stringify(canonical(match) ?? null);
  const rest: Raw = { ...o };
  if (http) delete rest.name;
  return JSON.stringify(canonical(rest) ?? {});
};

interface Report {
  code: 'unreachableRule' | 'ineffectiveMatch';
  part: string;
  evidence: Record<string, string>;
}

const routeName = (route: Raw | null, n: number, http: boolean): string => {
  const name = http ? (str(route?.name) ?? '') : '';
  return name !== '' ? JSON.stringify(name) : `#${n}`;
};
const requestName = (match: unknown, n: number, http: boolean): string => {
  const name = http ? (str(obj(match)?.name) ?? '') : '';
  return name !== '' ? JSON.stringify(name) : `#${n}`;
};

interface PrefixMatch {
  route: string;
  match: string;
  at: string;
  prefix: string;
  port: unknown;
  method: string;
  authority: string;
  headers: Record<string, string>;
  queryParams: Record<string, string>;
  withoutHeaders: Record<string, string>;
}

const exactOrPrefix = (m: unknown): string => {
  const o = obj(m);
  const exact = str(o?.exact) ?? '';
  if (exact !== '') return `exact:${exact}`;
  const prefix = str(o?.prefix) ?? '';
  return prefix !== '' ? `prefix:${prefix}` : '';
};
const stringMatches = (m: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(m) ?? {}).map(([k, v]) => [k, exactOrPrefix(v)]));

function prefixMatch(match: unknown, route: string, name: string, at: string): PrefixMatch | null {
  const m = obj(match);
  const prefix = str(obj(m?.uri)?.prefix) ?? '';
  if (m === null || prefix === '') return null;
  return {
    route,
    match: name,
    at,
    prefix,
    port: m.port ?? 0,
    method: exactOrPrefix(m.method) || 'exact:GET',
    authority: exactOrPrefix(m.authority),
    headers: stringMatches(m.headers),
    queryParams: stringMatches(m.queryParams),
    withoutHeaders: stringMatches(m.withoutHeaders),
  };
}

/** Every value of `a` is in `b`, the same or (as istioctl compares them) starting with it. */
function sameOrPrefixed(a: Record<string, string>, b: Record<string, string>): boolean {
  if (Object.keys(a).length !== Object.keys(b).length) return false;
  return Object.entries(a).every(
    ([k, v]) => Object.hasOwn(b, k) && (v === b[k] || v.startsWith(b[k] ?? '')),
  );
}

/** Whether the earlier prefix match `a` takes every request of the later `b`. */
function covers(a: PrefixMatch, b: PrefixMatch): boolean {
  if (!b.prefix.startsWith(a.prefix) || b.port !== a.port) return false;
  if (a.method !== b.method && !a.method.startsWith(b.method)) return false;
  if (a.authority !== b.authority && !a.authority.startsWith(b.authority)) return false;
  return (
    sameOrPrefixed(a.headers, b.headers) &&
    sameOrPrefixed(a.queryParams, b.queryParams) &&
    sameOrPrefixed(a.withoutHeaders, b.withoutHeaders)
  );
}

/** The unreachable rules and ineffective matches of one list of routes (http, tcp or tls). */
function analyzeRoutes(routes: unknown[], field: string): Report[] {
  const http = field === 'http';
  const out: Report[] = [];
  const seen = new Map<string, number>();
  const prefixes: PrefixMatch[] = [];
  let matchless = -1;
  routes.forEach((raw, n) => {
    if (raw === null || raw === undefined) return;
    const route = obj(raw);
    const name = routeName(route, n, http);
    const matches = list(route?.match);
    if (matches.length === 0) {
      if (matchless >= 0)
        out.push({
          code: 'unreachableRule',
          part: `${field}[${n}]`,
          evidence: { rule: name, reason: 'only the last rule can have no matches' },
        });
      matchless = n;
      return;
    }
    let duplicates = 0;
    matches.forEach((match, m) => {
      const at = `${field}[${n}].match[${m}]`;
      if (matchless >= 0) {
        out.push({
          code: 'unreachableRule',
          part: at,
          evidence: { rule: name, reason: 'route without matches defined before' },
        });
        return;
      }
      const key = matchText(match, http);
      const dup = seen.get(key);
      if (dup !== undefined) {
        const earlier = routeName(obj(routes[dup]), dup, http);
        out.push({
          code: 'ineffectiveMatch',
          part: at,
          evidence: { rule: name, match: requestName(match, m, http), duplicateOf: earlier },
        });
        duplicates++;
        return;
      }
      seen.set(key, n);
      const p = http ? prefixMatch(match, name, requestName(match, m, http), at) : null;
      if (p !== null) prefixes.push(p);
    });
    if (duplicates === matches.length)
      out.push({
        code: 'unreachableRule',
        part: `${field}[${n}]`,
        evidence: { rule: name, reason: 'all matches used by prior rules' },
      });
  });
  prefixes.forEach((a, i) => {
    for (const b of prefixes.slice(i + 1)) {
      if (b.prefix === a.prefix || !covers(a, b)) continue;
      out.push({
        code: 'ineffectiveMatch',
        part: `${b.at} ~ ${a.at}`,
        evidence: {
          rule: b.route,
          match: `${b.match} of prefix ${b.prefix}`,
          duplicateOf: `${a.match} of prefix ${a.prefix} on ${a.route}`,
        },
      });
    }
  });
  return out;
}

const FIX = {
  unreachableRule:
    'Reorder the rules so that a rule without matches comes last and more specific matches come first, or remove the rule that is never used.',
  ineffectiveMatch:
    'Put the more specific match (the longer prefix, the one with more conditions) in an earlier rule, or remove the match that is never used.',
};

export const VIRTUAL_SERVICE_UNREACHABLE = defineRule({
  id: 'virtual-service-unreachable',
  analyzer: 'schema.ValidationAnalyzer.VirtualService',
  catalog: CATALOG,
  claims: [
    { code: 'IST0130', kinds: ['VirtualService'] },
    { code: 'IST0131', kinds: ['VirtualService'] },
  ],
  reads: ['VirtualService'],
  perObject: true,
  check(ctx) {
    return ctx.objects('VirtualService').flatMap((vs: KubeObject): Finding[] => {
      const spec = specOf(vs);
      if (spec === null) return [];
      const subject = {
        kind: 'VirtualService',
        namespace: vs.metadata.namespace ?? 'default',
        name: vs.metadata.name,
      };
      return ['http', 'tcp', 'tls'].flatMap((field) =>
        analyzeRoutes(list(spec[field]), field).map((r) => ({
          code: CATALOG.code[r.code],
          severity: CATALOG.byKey[r.code].severity,
          subject,
          part: { kind: 'field' as const, name: r.part },
          evidence: r.evidence,
          fix: { why: FIX[r.code] },
        })),
      );
    });
  },
});
