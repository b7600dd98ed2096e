/**
 * One rule per kind of URL parameter, shared by every route and page: a namespace, a pod name, an
 * IP address, a client list (`ns/pod,...`), an Envoy access-log format. A value that does not
 * fit its kind is a 400 naming the parameter and saying why (never dropped, never trusted); an
 * empty value is the same as none; a parameter given twice is a 400 too (which one was meant?).
 */
import { z } from 'zod';
import { compileFormat, unreadableFormat } from '../accesslog/format';
import { badParameter } from './request-error';
import { OBJECT_UID, parsePodKey } from '../refs/pod-ref';
import { RefError } from '../refs/ref-error';
import { VERDICT_NAMES } from '../timeline/verdicts';
import { SNAPSHOT_ID } from './snapshots';
import { parseTimeParam, TIME_FORMS_HINT, TIME_RANGE } from './time-param';

/** The instant a relative time's shape is checked against (its value is read where it is used). */
const SHAPE_NOW = (TIME_RANGE.min + TIME_RANGE.max) / 2;

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const namespace = z
  .string()
  .max(63, 'is longer than 63 characters')
  .regex(LABEL, 'is not a namespace name (lowercase letters, digits and "-")');
const pod = z
  .string()
  .max(253, 'is longer than 253 characters')
  .regex(SUBDOMAIN, 'is not a pod name (lowercase letters, digits, "-" and ".")');
const ip = z.union([z.ipv4(), z.ipv6()], { error: 'is not an IPv4 or IPv6 address' });
/** Client proxies, "ns/pod" comma-separated, each part checked by its own rule. */
const client = z
  .string()
  .max(4000, 'is longer than 4000 characters')
  .transform((v, ctx) => {
    const refs = [...new Set(v.split(',').map((r) => r.trim()))];
    for (const ref of refs) {
      try {
        parsePodKey(ref);
      } catch (e) {
        if (!(e instanceof RefError)) throw e;
        ctx.addIssue({
          code: 'custom',
          message: `${JSON.stringify(ref.slice(0, 80))} is not a pod reference (namespace/name): ${e.reason}`,
        });
        return z.NEVER;
      }
    }
    return refs.join(',');
  });
/** One pod, "ns/pod" (a selected row: the pod of a timeline, a proxy, a ztunnel). */
const ref = z
  .string()
  .max(317, 'is longer than 317 characters')
  .superRefine((v, ctx) => {
    try {
      parsePodKey(v);
    } catch (e) {
      if (!(e instanceof RefError)) throw e;
      ctx.addIssue({
        code: 'custom',
        message: `is not a pod reference (namespace/name): ${e.reason}`,
      });
    }
  });
/** A custom Envoy access-log format string: it must compile and name at least one field. */
const format = z
  .string()
  .max(4096, 'is longer than 4096 characters')
  .superRefine((v, ctx) => {
    const result = compileFormat(v);
    const { format: compiled } = result;
    // an operator this list lacks is read as text when the format has known ones (a newer Envoy)
    const refused = unreadableFormat(result) ?? [];
    const first = result.problems.find(
      (p) => p.reason !== 'unknown-operator' || refused.includes(p),
    );
    if (first)
      ctx.addIssue({ code: 'custom', message: `is not a usable Envoy format: ${first.message}` });
    else if (compiled.operators.length === 0)
      ctx.addIssue({
        code: 'custom',
        message: 'is not an Envoy format: it names no %OPERATOR% (like %RESPONSE_CODE%)',
      });
  });

/** A workload's name (a Deployment, StatefulSet, ... or a bare pod): a DNS-1123 subdomain. */
const workload = z
  .string()
  .max(253, 'is longer than 253 characters')
  .regex(SUBDOMAIN, 'is not a workload name (lowercase letters, digits, "-" and ".")');
/** A switch: 1, true, 0 or false. */
const flag = z
  .enum(['1', 'true', '0', 'false'], { error: 'is not 1, true, 0 or false' })
  .transform((v) => v === '1' || v === 'true');
/** A snapshot id as newSnapshotId makes them: 22 base64url characters. */
const snapshot = z
  .string()
  .regex(SNAPSHOT_ID, 'is not a snapshot id (22 letters, digits, "-", "_")');
/** Free text (a search, a service host): at most 200 printable characters. */
const text = z
  .string()
  .max(200, 'is longer than 200 characters')
  .regex(/^[^\p{Cc}]*$/u, 'holds a control character (NUL, tab, newline, ...)');
/** A name from a fixed list (a sort key, a verdict, a finding code, a reason): checked by shape here, by the list where it is used. */
const token = z
  .string()
  .max(64, 'is longer than 64 characters')
  .regex(
    /^[A-Za-z][A-Za-z0-9_.-]*$/,
    'is not a name (a letter, then letters, digits, "_", "-", ".")',
  );
/** A row offset: a whole number from 0 to 100,000,000. */
const count = z
  .string()
  .regex(/^\d{1,9}$/, 'is not a whole number')
  .transform(Number)
  .refine((n) => n <= 100_000_000, 'is more than 100000000');
/** A page size: a whole number from 1 (each route holds its own maximum). */
const limit = z
  .string()
  .regex(/^\d{1,9}$/, 'is not a whole number')
  .transform(Number)
  .refine((n) => n >= 1, 'must be at least 1');
/** A screen's page number, from 1. */
const page = z
  .string()
  .regex(/^[1-9]\d{0,5}$/, 'is not a page number (1 to 999999)')
  .transform(Number);
const dir = z.enum(['asc', 'desc'], { error: 'is not asc or desc' });
const severity = z.enum(['error', 'warning', 'info'], { error: 'is not error, warning or info' });
const verdict = z.enum(VERDICT_NAMES, { error: `is not a verdict (${VERDICT_NAMES.join(', ')})` });
/** A time in a form a link may write it (RFC 3339, epoch ms, now-15m): read against the cluster's clock where used. */
const time = z.string().superRefine((v, ctx) => {
  const t = parseTimeParam(v, SHAPE_NOW);
  if (!t.ok) ctx.addIssue({ code: 'custom', message: t.problem });
});
/** A Kubernetes object's uid (metadata.uid), see OBJECT_UID. */
const uid = z.string().regex(OBJECT_UID, 'is not an object uid (letters, digits, "-", "_", ".")');
/** A kubeconfig context name: printable ASCII, at most 253 characters. */
const context = z.string().regex(/^[\x21-\x7e]{1,253}$/, 'is not a context name');

export const ParamSchemas = {
  namespace,
  pod,
  ip,
  client,
  ref,
  format,
  workload,
  flag,
  snapshot,
  text,
  token,
  count,
  limit,
  page,
  dir,
  severity,
  verdict,
  time,
  context,
  uid,
} as const;
export type ParamKind = keyof typeof ParamSchemas;
/** What a parameter of a kind is once checked (a flag a boolean, a count a number). */
export type ParamValue<K extends ParamKind> = z.output<(typeof ParamSchemas)[K]>;

const HINTS: Record<ParamKind, string> = {
  namespace: 'Give a Kubernetes namespace name, e.g. namespace=shop.',
  pod: 'Give a Kubernetes pod name, e.g. checkout-7d9f8-abcde.',
  ip: 'Give one address, e.g. ip=10.244.1.17.',
  client: 'Give pods as namespace/name, comma-separated, e.g. client=shop/web-0,shop/web-1.',
  ref: 'Give one pod as namespace/name, e.g. shop/web-0.',
  format: "Give the proxy's accessLogFormat as set in the mesh config, or leave format out.",
  workload: 'Give a workload name as the table shows it, e.g. workload=checkout.',
  flag: 'Give 1 (or true) to switch it on, 0 (or false) or nothing to leave it off.',
  snapshot: 'Copy the id from Share or from GET /api/snapshots.',
  text: 'Give at most 200 characters of plain text.',
  token: 'Give one of the names the view offers.',
  count: 'Give a whole number, e.g. 0 or 50.',
  limit: 'Give a whole number from 1, e.g. 50.',
  page: 'Give a page number from 1.',
  dir: 'Give asc or desc.',
  severity: 'Give error, warning or info.',
  verdict: `Give one of ${VERDICT_NAMES.join(', ')}.`,
  time: TIME_FORMS_HINT,
  context: 'GET /api/contexts lists the contexts.',
  uid: "Give the pod's metadata.uid as a link from meshdx wrote it, or leave uid out.",
};

const shown = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);

/** `value` checked as a `kind`, or the 400 naming `name`. */
export function checkParam<K extends ParamKind>(
  kind: K,
  name: string,
  value: string,
): ParamValue<K> {
  const r = ParamSchemas[kind].safeParse(value);
  if (r.success) return r.data as ParamValue<K>;
  const why = r.error.issues[0]?.message ?? 'is not valid';
  throw badParameter(name, `${shown(value)} ${why}`, HINTS[kind]);
}

/** The checked values of the parameters a spec names (absent ones undefined). */
export type ParamValues<S extends Record<string, ParamKind>> = {
  [K in keyof S]?: ParamValue<S[K]>;
};

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesOf(params: Params, name: string): string[] {
  if (params instanceof URLSearchParams) return params.getAll(name);
  const v = params[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * The parameters `spec` names, each checked by its kind: absent or empty is undefined, a bad
 * value or a repeated parameter throws the 400 naming it.
 */
export function queryParams<S extends Record<string, ParamKind>>(
  params: Params,
  spec: S,
): ParamValues<S> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(spec) as (keyof S & string)[]) {
    const given = valuesOf(params, name).filter((v) => v !== '');
    if (given.length > 1) throw badParameter(name, `given ${given.length} times`, 'Give it once.');
    const [v] = given;
    if (v !== undefined) out[name] = checkParam(spec[name] as ParamKind, name, v);
  }
  return out as ParamValues<S>;
}
