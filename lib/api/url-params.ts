/**
 * The checks every filtered, paged API shares for its URL parameters. A value that cannot be used
 * is a 400 naming the parameter (never silently ignored); an empty value is the same as none.
 */
import { checkParam } from './param-kinds';
import { badParameter } from './request-error';

/** The trimmed value, or undefined when absent or blank. */
export const textParam = (v: string | null): string | undefined =>
  v !== null && v.trim() !== '' ? v.trim() : undefined;

/** A whole number from 0 to max, or undefined when absent. */
export function countParam(name: string, v: string | null, max: number): number | undefined {
  if (v === null || v === '') return undefined;
  if (!/^\d{1,9}$/.test(v))
    throw badParameter(name, `${JSON.stringify(v.slice(0, 20))} is not a whole number`);
  const n = Number(v);
  if (n > max) throw badParameter(name, `${n} is more than ${max}`);
  return n;
}

/** A page size: a whole number from 1 to max, or undefined when absent. */
export function limitParam(v: string | null, max: number): number | undefined {
  const n = countParam('limit', v, max);
  if (n === 0) throw badParameter('limit', 'must be at least 1');
  return n;
}

/** A namespace name (RFC 1123 label), or undefined when absent. */
export function namespaceParam(v: string | null): string | undefined {
  const ns = textParam(v);
  return ns === undefined ? undefined : checkParam('namespace', 'namespace', ns);
}
