/**
 * Suppressions as istioctl analyze has them: `--suppress "CODE=Kind name.namespace"` (the
 * resource as istioctl names it, `*` matching any run of characters: `IST0103=Pod *.testing`)
 * and the `galley.istio.io/analyze-suppress` annotation on the object a finding is about (codes
 * separated by commas, `*` for every code). Kiali's `kiali.io/ignore-validations` is honoured
 * beside it, as Kiali reads it: an empty value ignores every finding on the object, else the
 * codes it lists, separated by commas (Kiali's own KIA codes name Kiali's checks, not meshdx's).
 * A suppressed finding is not shown; how many were suppressed, and by which rule, is. Pure.
 */
import { isJsonObject } from '../json-object';
import { subjectKey } from '../refs/object-ref';
import { catalogEntry } from './registry';
import type { Finding } from './types';

export const SUPPRESS_ANNOTATION = 'galley.istio.io/analyze-suppress';
export const KIALI_IGNORE_ANNOTATION = 'kiali.io/ignore-validations';
/** The annotations that silence findings on the object they are on. */
const SILENCING = [SUPPRESS_ANNOTATION, KIALI_IGNORE_ANNOTATION] as const;

export interface SuppressRule {
  code: string;
  /** istioctl's resource form, `Kind name.namespace` (`Kind name` when cluster-scoped). */
  resource: string;
}

/** A `--suppress` value read, or why it cannot be; `warning` when its code is unknown. */
export type ParsedRule = { rule: SuppressRule; warning?: string } | { error: string };

export function parseSuppressRule(text: string): ParsedRule {
  const parts = text.split('=');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
    return {
      error: `${JSON.stringify(text)} is not a suppression: expected CODE=RESOURCE, e.g. "IST0103=Pod mypod.testing" or "IST0103=Pod *.testing"`,
    };
  }
  const [code, resource] = parts as [string, string];
  const rule = { code, resource };
  return catalogEntry(code) === undefined
    ? {
        rule,
        warning: `message code ${code} is unknown to meshdx: --suppress "${text}" has no effect`,
      }
    : { rule };
}

/** The subject as istioctl names a resource: `Kind name.namespace`, `Kind name` without one. */
export function istioResourceName(s: Finding['subject']): string {
  return `${s.kind} ${s.name}${s.namespace ? `.${s.namespace}` : ''}`;
}

/** istioctl's glob (ryanuber/go-glob): `*` matches any run of characters, nothing else is special. */
export function globMatch(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let at = first.length;
  for (const mid of parts.slice(1, -1)) {
    const i = text.indexOf(mid, at);
    if (i < 0) return false;
    at = i + mid.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

/** Annotations of the objects findings may be about, by `Kind|namespace|name`. */
export type AnnotationIndex = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The annotation index of typed objects (kind, namespace and name known). */
export function annotationIndex(
  objects: readonly {
    kind?: string;
    metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  }[],
): Map<string, Readonly<Record<string, string>>> {
  const out = new Map<string, Readonly<Record<string, string>>>();
  for (const o of objects) {
    const a = o.metadata.annotations;
    if (o.kind === undefined || a === undefined || SILENCING.every((k) => a[k] === undefined))
      continue;
    out.set(subjectKey(o.kind, o.metadata.namespace, o.metadata.name), a);
  }
  return out;
}

/**
 * The annotation index of objects as read from manifests (`unknown` until checked): an object
 * without namespace is found under `defaultNamespace` too, as the checks place it there.
 */
export function annotationIndexOfRaw(
  objects: readonly unknown[],
  defaultNamespace = 'default',
): Map<string, Readonly<Record<string, string>>> {
  const typed = [];
  for (const o of objects) {
    if (!isJsonObject(o) || typeof o.kind !== 'string' || !isJsonObject(o.metadata)) continue;
    const m = o.metadata;
    const a = m.annotations;
    if (typeof m.name !== 'string' || !isJsonObject(a)) continue;
    const annotations: Record<string, string> = {};
    for (const k of SILENCING) {
      const v = a[k];
      if (typeof v === 'string') annotations[k] = v;
    }
    if (Object.keys(annotations).length === 0) continue;
    const ns = typeof m.namespace === 'string' ? m.namespace : undefined;
    typed.push({ kind: o.kind, metadata: { name: m.name, namespace: ns, annotations } });
    if (ns === undefined) {
      typed.push({
        kind: o.kind,
        metadata: { name: m.name, namespace: defaultNamespace, annotations },
      });
    }
  }
  return annotationIndex(typed);
}

export interface SuppressedCount {
  /** `--suppress CODE=RESOURCE`, or `annotation galley.istio.io/analyze-suppress=... on Kind ns/name` (or kiali.io/ignore-validations). */
  by: string;
  count: number;
}

export interface SuppressResult<T extends Finding> {
  kept: T[];
  /** Each silenced finding with what silenced it (the `by` of counts). */
  silenced: { finding: T; by: string }[];
  suppressed: number;
  /** How many each rule or annotation silenced, in the order first used. */
  counts: SuppressedCount[];
}

/** Findings without those the rules or the subjects' annotations silence, and what was silenced. */
export function applySuppressions<T extends Finding>(
  findings: readonly T[],
  rules: readonly SuppressRule[],
  annotations: AnnotationIndex,
): SuppressResult<T> {
  const counts = new Map<string, number>();
  const kept: T[] = [];
  const silenced: { finding: T; by: string }[] = [];
  for (const f of findings) {
    const by = suppressedBy(f, rules, annotations);
    if (by === null) kept.push(f);
    else {
      counts.set(by, (counts.get(by) ?? 0) + 1);
      silenced.push({ finding: f, by });
    }
  }
  return {
    kept,
    silenced,
    suppressed: findings.length - kept.length,
    counts: [...counts.entries()].map(([by, count]) => ({ by, count })),
  };
}

function suppressedBy(
  f: Finding,
  rules: readonly SuppressRule[],
  annotations: AnnotationIndex,
): string | null {
  const s = f.subject;
  const on = annotations.get(subjectKey(s.kind, s.namespace, s.name));
  const where = `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;
  const a = on?.[SUPPRESS_ANNOTATION];
  if (a !== undefined && a !== '' && a.split(',').some((c) => c === '*' || c === f.code)) {
    return `annotation ${SUPPRESS_ANNOTATION}=${a} on ${where}`;
  }
  const k = on?.[KIALI_IGNORE_ANNOTATION];
  if (k !== undefined && (k.trim() === '' || k.split(',').some((c) => c.trim() === f.code))) {
    return `annotation ${KIALI_IGNORE_ANNOTATION}${k.trim() === '' ? ' (empty: every finding)' : `=${k}`} on ${where}`;
  }
  const name = istioResourceName(s);
  const rule = rules.find((r) => r.code === f.code && globMatch(r.resource, name));
  return rule === undefined ? null : `--suppress ${rule.code}=${rule.resource}`;
}
