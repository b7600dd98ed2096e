/**
 * One rule per kind of URL parameter, shared by every route and page: a namespace, a pod name, an
 * IP address, a client list (`ns/pod,...`), an Envoy access-log format. A value that does not
 * fit its kind is a 400 naming the parameter and saying why (never dropped, never trusted); an
 * empty value is the same as none; a parameter given twice is a 400 too (which one was meant?).
 */
import { z } from 'zod';
import { compileFormat } from '../accesslog/format';
import { badParameter } from './request-error';
import { parsePodKey } from '../refs/pod-ref';
import { RefError } from '../refs/ref-error';

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
/** A custom Envoy access-log format string: it must compile and name at least one field. */
const format = z
  .string()
  .max(4096, 'is longer than 4096 characters')
  .superRefine((v, ctx) => {
    const { format: compiled, problems } = compileFormat(v);
    const first = problems[0];
    if (first)
      ctx.addIssue({ code: 'custom', message: `is not a usable Envoy format: ${first.message}` });
    else if (compiled.operators.length === 0)
      ctx.addIssue({
        code: 'custom',
        message: 'is not an Envoy format: it names no %OPERATOR% (like %RESPONSE_CODE%)',
      });
  });

export const ParamSchemas = { namespace, pod, ip, client, format } as const;
export type ParamKind = keyof typeof ParamSchemas;

const HINTS: Record<ParamKind, string> = {
  namespace: 'Give a Kubernetes namespace name, e.g. namespace=shop.',
  pod: 'Give a Kubernetes pod name, e.g. checkout-7d9f8-abcde.',
  ip: 'Give one address, e.g. ip=10.244.1.17.',
  client: 'Give pods as namespace/name, comma-separated, e.g. client=shop/web-0,shop/web-1.',
  format: "Give the proxy's accessLogFormat as set in the mesh config, or leave format out.",
};

const shown = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);

/** `value` checked as a `kind`, or the 400 naming `name`. */
export function checkParam(kind: ParamKind, name: string, value: string): string {
  const r = ParamSchemas[kind].safeParse(value);
  if (r.success) return r.data;
  const why = r.error.issues[0]?.message ?? 'is not valid';
  throw badParameter(name, `${shown(value)} ${why}`, HINTS[kind]);
}

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
): { [K in keyof S]?: string } {
  const out: { [K in keyof S]?: string } = {};
  for (const name of Object.keys(spec) as (keyof S & string)[]) {
    const given = valuesOf(params, name).filter((v) => v !== '');
    if (given.length > 1) throw badParameter(name, `given ${given.length} times`, 'Give it once.');
    const [v] = given;
    if (v !== undefined) out[name] = checkParam(spec[name] as ParamKind, name, v);
  }
  return out;
}

/** The kinds of the filters each view's URL carries (what the routes and pages check). */
export const VIEW_PARAM_KINDS = {
  incidents: { namespace: 'namespace', ip: 'ip', client: 'client' },
  upload: { namespace: 'namespace', ip: 'ip', format: 'format' },
  namespaced: { namespace: 'namespace' },
} as const satisfies Record<string, Record<string, ParamKind>>;
