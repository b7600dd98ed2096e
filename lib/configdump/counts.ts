import { arrayField, hasField } from './fields';
import { resourcesOf, sectionsOf } from './parse';
import type { ConfigDump, DumpSection, ResourceCounts } from './types';

function len(body: unknown, key: string): number {
  return arrayField(body, key)?.length ?? 0;
}

function zero(): ResourceCounts {
  return { static: 0, dynamic: 0, warming: 0, draining: 0 };
}

/**
 * v3 dumps list every dynamic listener once in `dynamic_listeners`, with `active_state`,
 * `warming_state` and/or `draining_state`; v2 dumps had three separate lists.
 */
function addListenerSection(c: ResourceCounts, s: DumpSection): void {
  c.static += len(s.body, 'static_listeners');
  for (const l of arrayField(s.body, 'dynamic_listeners') ?? []) addDynamicListener(c, l);
  c.dynamic += len(s.body, 'dynamic_active_listeners');
  c.warming += len(s.body, 'dynamic_warming_listeners');
  c.draining += len(s.body, 'dynamic_draining_listeners');
}

function addDynamicListener(c: ResourceCounts, l: unknown): void {
  const active = hasField(l, 'active_state');
  const warming = hasField(l, 'warming_state');
  const draining = hasField(l, 'draining_state');
  if (active || (!warming && !draining)) c.dynamic++;
  if (warming) c.warming++;
  if (draining) c.draining++;
}

export function listenerCounts(dump: ConfigDump): ResourceCounts {
  const c = zero();
  for (const s of sectionsOf(dump, 'listeners')) addListenerSection(c, s);
  for (const r of resourcesOf(dump, 'listeners')) {
    if (r.element === 'StaticListener') c.static++;
    else addDynamicListener(c, r.body);
  }
  return c;
}

export function routeCounts(dump: ConfigDump): ResourceCounts {
  const c = zero();
  for (const s of sectionsOf(dump, 'routes')) {
    c.static += len(s.body, 'static_route_configs');
    c.dynamic += len(s.body, 'dynamic_route_configs');
  }
  for (const r of resourcesOf(dump, 'routes')) {
    if (r.element === 'StaticRouteConfig') c.static++;
    else c.dynamic++;
  }
  return c;
}
