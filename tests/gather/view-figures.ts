/**
 * Every view's answer on one context, through the dashboard's route handlers (the code the
 * pages fetch), and the figures of an answer without what says when it was made: what
 * tests/gather/every-view.test.ts compares between a live cluster and its gathered archive.
 */
import { expect } from 'vitest';
import { GET as ambientGet } from '../../app/api/ambient/route';
import { GET as findingsGet } from '../../app/api/findings/route';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as inventoryGet } from '../../app/api/inventory/route';
import { GET as podGet } from '../../app/api/pods/[namespace]/[name]/route';
import { GET as proxyGet } from '../../app/api/proxies/[namespace]/[name]/route';
import { GET as fleetGet } from '../../app/api/proxies/fleet/route';
import { GET as scopingGet } from '../../app/api/scoping/route';
import { GET as timelineGet } from '../../app/api/timelines/[namespace]/[name]/route';
import { GET as timelinesGet } from '../../app/api/timelines/route';
import { GET as ztunnelGet } from '../../app/api/ztunnels/[namespace]/[name]/route';

export type ViewBody = Record<string, unknown>;
type Route = (req: Request) => Response | Promise<Response>;
type PathRoute = (
  req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) => Response | Promise<Response>;

async function get(route: Route, p: string, ctx: string): Promise<ViewBody> {
  const sep = p.includes('?') ? '&' : '?';
  const res = await route(new Request(`http://127.0.0.1:3000${p}${sep}context=${ctx}`));
  const body = (await res.json()) as ViewBody;
  expect(res.status, `${p}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return body;
}

async function getPath(route: PathRoute, p: string, ns: string, name: string, ctx: string) {
  const res = await route(new Request(`http://127.0.0.1:3000${p}?context=${ctx}`), {
    params: Promise.resolve({ namespace: ns, name }),
  });
  const body = (await res.json()) as ViewBody;
  expect(res.status, `${p}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return body;
}

export interface Pick {
  pod: { namespace: string; name: string };
  proxies: { namespace: string; name: string }[];
  ztunnel: { namespace: string; name: string } | null;
}

/** Every view's answer on one context; `pick` names the pods whose pages are read (the live ones). */
type ViewName =
  | 'inventory'
  | 'ambient'
  | 'timelines'
  | 'fleet'
  | 'scoping'
  | 'incidents'
  | 'findings'
  | 'podPage'
  | 'podTimeline'
  | 'proxy0'
  | 'proxy1'
  | 'proxy2';
export type Views = Record<ViewName, ViewBody> & { ztunnel?: ViewBody };

export async function views(ctx: string, pick: Pick | null): Promise<{ v: Views; pick: Pick }> {
  const v = {} as Views;
  v.inventory = await get(inventoryGet, '/api/inventory', ctx);
  v.ambient = await get(ambientGet, '/api/ambient', ctx);
  v.timelines = await get(timelinesGet, '/api/timelines?limit=500', ctx);
  v.fleet = await get(fleetGet, '/api/proxies/fleet?limit=500', ctx);
  v.scoping = await get(scopingGet, '/api/scoping', ctx);
  v.incidents = await get(incidentsGet, '/api/incidents', ctx);
  // the whole report, not a first answer with analyses still running
  for (;;) {
    v.findings = await get(findingsGet, '/api/findings', ctx);
    const late = v.findings.late;
    if (!late || (Array.isArray(late) && late.length === 0)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const rows = (v.timelines.rows ?? []) as { namespace: string; name: string }[];
  // proxies whose admin answered (a pod without an IP has no cluster table live or archived)
  const fleet = (
    (v.fleet.rows ?? []) as { namespace: string; name: string; status: string }[]
  ).filter((r) => r.status === 'ok');
  const zt = (v.fleet.ztunnels ?? []) as { namespace: string; name: string }[];
  const p: Pick = pick ?? {
    pod: { namespace: rows[0]!.namespace, name: rows[0]!.name },
    proxies: [fleet[0]!, fleet[Math.floor(fleet.length / 2)]!, fleet[fleet.length - 1]!].map(
      (r) => ({ namespace: r.namespace, name: r.name }),
    ),
    ztunnel: zt[0] ? { namespace: zt[0].namespace, name: zt[0].name } : null,
  };
  const { namespace, name } = p.pod;
  v.podPage = await getPath(podGet, '/api/pods/ns/name', namespace, name, ctx);
  v.podTimeline = await getPath(timelineGet, '/api/timelines/ns/name', namespace, name, ctx);
  for (const [i, x] of p.proxies.entries())
    v[`proxy${i}` as ViewName] = await getPath(
      proxyGet,
      '/api/proxies/ns/name',
      x.namespace,
      x.name,
      ctx,
    );
  if (p.ztunnel)
    v.ztunnel = await getPath(
      ztunnelGet,
      '/api/ztunnels/ns/name',
      p.ztunnel.namespace,
      p.ztunnel.name,
      ctx,
    );
  return { v, pick: p };
}

/** When a view was made and how long it took: not a figure of the cluster. */
const WHEN = new Set([
  'generatedAt',
  'scannedAt',
  'sampledAt',
  'durationMs',
  'oldestSampleAt',
  'newestSampleAt',
  'fetchedAt',
  'api',
]);

const ISO_MS = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+Z$/;

/** The value without the keys of WHEN (at any depth) nor those of `drop` (its own paths). */
export function figures(x: unknown, drop: readonly string[] = [], at = ''): unknown {
  if (Array.isArray(x)) return x.map((e) => figures(e, drop, `${at}[]`));
  // "now" on either side is the fixed clock plus the milliseconds a request took
  if (typeof x === 'string' && ISO_MS.test(x)) return x.replace(ISO_MS, '$1Z');
  if (x === null || typeof x !== 'object') return x;
  const out: ViewBody = {};
  for (const [k, val] of Object.entries(x as ViewBody)) {
    const p = at ? `${at}.${k}` : k;
    // a window that ends "now" ends at the moment of the request, not a figure either
    if (WHEN.has(k) || drop.includes(p) || p.endsWith('window.to')) continue;
    out[k] = figures(val, drop, p);
  }
  return out;
}
