import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendKsmMetrics } from '../ksm/handler';
import { sendEnvoyFleetMetrics } from '../mesh/fleet-exposition';
import { handleThrottle } from './throttle';
import { applyFaults, faultsJson, parseFaultPatch } from '../store/faults';
import { parseJson, readBody } from './body';
import type { SimContext } from './context';
import { badRequest, failure, notFound, sendJson, sendStatus } from './status';

/** The simulator's state for humans and tests (GET /_sim/info). */
export function simInfo(ctx: SimContext): object {
  return {
    scenario: ctx.scenario,
    clock: { mode: ctx.clock.mode, now: ctx.clock.now().toISOString() },
    resourceVersion: ctx.store.resourceVersion(),
    counts: ctx.store.counts(),
    faults: faultsJson(ctx.faults),
    droppedLogLines: ctx.logs.droppedLines(),
    requests: ctx.requests.toJSON(),
    // the watches open now (a watch resumed after its timeoutSeconds is still one)
    openWatches: ctx.requests.openWatches(),
    // with a token file: requests by (effective) user, and who impersonated whom
    ...(ctx.auth ? { auth: ctx.auth.toJSON() } : {}),
  };
}

/**
 * /_sim/info, /_sim/advance?ms=N, /_sim/faults: simulator controls, not part of the k8s API;
 * /_sim/ksm/metrics: the pods as kube-state-metrics exposes them, for a Prometheus to scrape;
 * /_sim/envoy/metrics: every proxy's Envoy series with pod/namespace labels (fleet-exposition.ts);
 * /_sim/throttle: 429 Retry-After for the next N API requests (throttle.ts).
 */
export async function handleControl(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /_sim/info':
    case 'GET /_sim':
      return sendJson(res, 200, JSON.stringify(simInfo(ctx)));
    case 'POST /_sim/advance': {
      const ms = url.searchParams.get('ms') ?? '';
      if (!/^\d+$/.test(ms))
        return sendStatus(res, badRequest(`ms must be a non-negative integer, got "${ms}"`));
      ctx.clock.advance(Number(ms));
      return sendJson(res, 200, JSON.stringify({ now: ctx.clock.now().toISOString() }));
    }
    case 'GET /_sim/ksm/metrics':
      return sendKsmMetrics(ctx.store, res);
    case 'GET /_sim/envoy/metrics':
      return sendEnvoyFleetMetrics(ctx, res);
    case 'GET /_sim/throttle':
    case 'POST /_sim/throttle':
      return handleThrottle(ctx, req, res);
    case 'GET /_sim/faults':
      return sendJson(res, 200, JSON.stringify(faultsJson(ctx.faults)));
    case 'POST /_sim/faults': {
      const text = await readBody(req, 1024 * 1024);
      if (text === 'too-large')
        return sendStatus(res, failure(413, 'RequestEntityTooLarge', 'body too large'));
      const json = parseJson(text);
      if (!json.ok) return sendStatus(res, badRequest(`bad JSON: ${json.error}`));
      const patch = parseFaultPatch(json.value);
      if (!patch.ok) return sendStatus(res, badRequest(patch.errors.join('; ')));
      applyFaults(ctx.faults, patch.patch);
      return sendJson(res, 200, JSON.stringify(faultsJson(ctx.faults)));
    }
    default:
      return sendStatus(res, notFound('_sim', url.pathname));
  }
}
