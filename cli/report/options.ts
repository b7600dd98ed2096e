import { parseArgs } from 'node:util';
import { SNAPSHOT_ID } from '../../lib/api/snapshots';
import { isViewName, VIEWS, type ReportOptions, type ReportViewName } from './model';
import { optionsProblem, type OptionSpecs } from '../io';

export const REPORT_USAGE =
  'usage: meshdx report --url URL [--out DIR] [--views overview,timelines,proxies,scoping,incidents,findings|none]\n' +
  '                     [--link URL ...] [--snapshot ID ...] [--namespace NS] [--width 1440] [--pdf]\n' +
  '                     [--timeout SECONDS]\n';

export const DEFAULT_WIDTH = 1440;
export const DEFAULT_TIMEOUT_S = 60;

export type ParsedOptions = { ok: true; options: ReportOptions } | { ok: false; error: string };

const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The dashboard URL, normalised: http(s) only, no query or fragment, path ending in '/'. */
export function normaliseBaseUrl(raw: string): { url: string } | { error: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { error: `--url ${raw} is not a URL (expected e.g. http://localhost:3000)` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { error: `--url ${raw}: only http:// and https:// are supported` };
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return { url: u.toString() };
}

function parseViews(raw: string | undefined): { views: ReportViewName[] } | { error: string } {
  if (raw === undefined) return { views: [...VIEWS] };
  if (raw.trim() === 'none') return { views: [] };
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !isViewName(n));
  if (unknown.length > 0)
    return { error: `unknown view ${unknown.join(', ')} (known: ${VIEWS.join(', ')}, or none)` };
  if (names.length === 0)
    return { error: `--views is empty (known: ${VIEWS.join(', ')}, or none)` };
  return { views: [...new Set(names.filter(isViewName))] };
}

function parseIntIn(
  flag: string,
  raw: string | undefined,
  dflt: number,
  min: number,
  max: number,
): { value: number } | { error: string } {
  if (raw === undefined) return { value: dflt };
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < min || n > max)
    return { error: `${flag} ${raw} is not a whole number between ${min} and ${max}` };
  return { value: n };
}

/** `meshdx report` argv (without the command name) -> options, or what is wrong with it. */
export function parseReportArgs(argv: readonly string[]): ParsedOptions {
  const problem = optionsProblem(argv, OPTIONS);
  if (problem !== null) return { ok: false, error: problem };
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  if (values.url === undefined) return { ok: false, error: '--url is required' };
  const base = normaliseBaseUrl(values.url);
  if ('error' in base) return { ok: false, error: base.error };
  const views = parseViews(values.views);
  if ('error' in views) return { ok: false, error: views.error };
  const width = parseIntIn('--width', values.width, DEFAULT_WIDTH, 320, 7680);
  if ('error' in width) return { ok: false, error: width.error };
  const timeout = parseIntIn('--timeout', values.timeout, DEFAULT_TIMEOUT_S, 1, 3600);
  if ('error' in timeout) return { ok: false, error: timeout.error };
  const ns = values.namespace;
  if (ns !== undefined && (ns.length > 63 || !NAMESPACE.test(ns)))
    return { ok: false, error: `--namespace ${ns} is not a Kubernetes namespace name` };
  const links = values.link ?? [];
  const snapshots = values.snapshot ?? [];
  const badSnapshot = snapshots.find((s) => snapshotRef(s) === null);
  if (badSnapshot !== undefined)
    return {
      ok: false,
      error: `--snapshot ${badSnapshot} is not a snapshot id (the 22 characters after /snapshots/ in a Share link) or such a link`,
    };
  if (views.views.length === 0 && links.length === 0 && snapshots.length === 0)
    return { ok: false, error: 'nothing to capture: --views none and no --link or --snapshot' };
  if (values.out !== undefined && values.out.trim() === '')
    return { ok: false, error: '--out is empty' };
  return {
    ok: true,
    options: {
      url: base.url,
      out: values.out ?? null,
      views: views.views,
      links,
      snapshots,
      namespace: ns ?? null,
      width: width.value,
      pdf: values.pdf ?? false,
      timeoutMs: timeout.value * 1000,
    },
  };
}

const OPTIONS = {
  url: { type: 'string' },
  out: { type: 'string' },
  views: { type: 'string' },
  link: { type: 'string', multiple: true },
  snapshot: { type: 'string', multiple: true },
  namespace: { type: 'string' },
  width: { type: 'string' },
  pdf: { type: 'boolean' },
  timeout: { type: 'string' },
} as const satisfies OptionSpecs;

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS });
}

/**
 * A --snapshot value: an id, or a Share link (`/snapshots/ID`, absolute or not, its `?context=`
 * kept) -> the id and the query to ask with; null when it is neither.
 */
export function snapshotRef(raw: string): { id: string; search: string } | null {
  const v = raw.trim();
  if (SNAPSHOT_ID.test(v)) return { id: v, search: '' };
  let u: URL;
  try {
    u = new URL(v, 'http://meshdx.invalid/');
  } catch {
    return null;
  }
  const m = /\/snapshots\/([^/]+)$/.exec(u.pathname);
  return m?.[1] !== undefined && SNAPSHOT_ID.test(m[1]) ? { id: m[1], search: u.search } : null;
}
