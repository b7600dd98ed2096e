/**
 * One reader for every time a URL gives meshdx (a view's `from`/`to`, the live tail's `since`),
 * in the forms the links that open meshdx send:
 * - RFC 3339 (`2026-11-01T12:00:00Z`, `...+01:00`): what meshdx writes, and what Grafana's
 *   `${__from:date:iso}` sends;
 * - epoch milliseconds (`1793534400000`): Grafana's `${__from}` / `${__to}`, Alertmanager
 *   templates doing arithmetic on `.StartsAt.Unix`;
 * - Grafana's relative forms: `now`, `now-15m`, `now-1h`, `now-2d`, `now-1w`, `now+5m`, chained
 *   (`now-1d-2h`), against the cluster's clock.
 * Anything else is a problem that says which forms are taken, never a guess: a 10-digit number
 * (epoch seconds or milliseconds?), months and years (no fixed length), Grafana's rounding
 * (`now/d`: in which time zone?), a date without a time.
 */

/** Earliest and latest instants a window may name (Kubernetes did not exist before 2014). */
export const TIME_RANGE = {
  min: Date.parse('2014-01-01T00:00:00Z'),
  max: Date.parse('2100-01-01T00:00:00Z'),
};

/** RFC 3339 date-time (section 5.6): a full date, a time, and Z or an offset. */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** How each time was written: what a page that freezes a link into absolute times looks at. */
export type TimeForm = 'rfc3339' | 'epoch-ms' | 'relative';

export type TimeParam =
  { ok: true; ms: number; iso: string; form: TimeForm } | { ok: false; problem: string };

/** What to write instead, for a 400's hint. */
export const TIME_FORMS_HINT =
  "Give an RFC 3339 time (2026-11-01T12:00:00Z), epoch milliseconds (1793534400000, as Grafana's ${__from} sends) or a time relative to now (now, now-15m, now-1h, now-2d).";

const shown = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** Why `s` is not a usable RFC 3339 time, or null when it is. */
export function rfc3339Problem(s: string): string | null {
  const m = RFC3339.exec(s);
  if (!m) return `${shown(s)} is not an RFC 3339 time (like 2026-11-01T12:00:00Z)`;
  const [, y, mo, d, h, mi, se] = m.map(Number) as number[];
  const t = Date.parse(s);
  const probe = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 0));
  if (
    Number.isNaN(t) ||
    probe.getUTCMonth() !== (mo ?? 1) - 1 ||
    probe.getUTCDate() !== d ||
    (h ?? 0) > 23 ||
    (mi ?? 0) > 59 ||
    (se ?? 0) > 60
  )
    return `${JSON.stringify(s)} is not a valid date and time`;
  return rangeProblem(s, t);
}

function rangeProblem(s: string, t: number): string | null {
  return t < TIME_RANGE.min || t >= TIME_RANGE.max
    ? `${shown(s)} is out of range (2014 to 2099)`
    : null;
}

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

function relative(s: string, nowMs: number): TimeParam {
  let t = nowMs;
  // sticky: each step must start where the last ended (a regex of its own per call)
  const STEP = /([+-])(\d{1,7})([a-zA-Z]+)/y;
  STEP.lastIndex = 3;
  while (STEP.lastIndex < s.length) {
    const at = STEP.lastIndex;
    if (s[at] === '/')
      return fail(
        `${shown(s)} rounds to a unit (Grafana's "/"), which depends on a time zone meshdx does not know`,
      );
    const m = STEP.exec(s);
    if (!m) return fail(`${shown(s)} is not a relative time (like now-15m)`);
    const [, sign, n, unit] = m as unknown as [string, string, string, string];
    if (unit === 'M' || unit === 'y')
      return fail(
        `${shown(s)} counts in ${unit === 'M' ? 'months' : 'years'}, which have no fixed length: give days or weeks (now-30d)`,
      );
    const per = UNIT_MS[unit];
    if (per === undefined)
      return fail(`${shown(s)} has unit "${unit}": relative times take s, m, h, d or w`);
    t += (sign === '-' ? -1 : 1) * Number(n) * per;
  }
  return done(s, t, 'relative');
}

function fail(problem: string): TimeParam {
  return { ok: false, problem };
}

function done(s: string, ms: number, form: TimeForm): TimeParam {
  const p = rangeProblem(s, ms);
  return p ? fail(p) : { ok: true, ms, iso: new Date(ms).toISOString(), form };
}

/**
 * A time as a link writes it (see the module's comment), read against `now` (the cluster's
 * clock; a function is called only for a relative time) for the relative forms.
 */
export function parseTimeParam(value: string, now: number | (() => number)): TimeParam {
  const s = value.trim();
  if (s.startsWith('now')) return relative(s, typeof now === 'function' ? now() : now);
  if (/^\d+$/.test(s)) {
    if (s.length === 10)
      return fail(
        `${shown(s)} looks like epoch seconds; meshdx takes epoch milliseconds (13 digits, as Grafana's \${__from} sends)`,
      );
    if (s.length !== 13) return fail(`${shown(s)} is not epoch milliseconds (13 digits)`);
    return done(s, Number(s), 'epoch-ms');
  }
  const p = rfc3339Problem(s);
  return p
    ? fail(p)
    : { ok: true, ms: Date.parse(s), iso: new Date(s).toISOString(), form: 'rfc3339' };
}
