import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../lib/kube/types';
import type { KindInfo } from '../store/kinds';
import { parseJson, readBody } from './body';
import type { SimContext } from './context';
import { jsonPatch, mergePatch, PatchError, patchTypeOf } from './patch';
import type { ResourcePath } from './paths';
import { at } from './printers';
import { invalidStatus } from './resources';
import { badRequest, conflict, failure, notFound, sendJson, sendStatus } from './status';
import { invalid } from './validation';

/** Kinds with a /scale subresource (what `kubectl scale` and autoscalers use). */
export const SCALABLE: ReadonlySet<string> = new Set([
  'deployments',
  'replicasets',
  'statefulsets',
]);

type Scalable = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

function selectorString(obj: Scalable): string {
  const m = at(obj, 'spec.selector.matchLabels');
  if (m === null || typeof m !== 'object') return '';
  return Object.entries(m as Record<string, unknown>)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}

/** The autoscaling/v1 Scale of an object: its replicas asked for and seen, and its selector. */
export function scaleOf(obj: Scalable): object {
  const replicas = at(obj, 'spec.replicas');
  const seen = at(obj, 'status.replicas');
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
      creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: typeof replicas === 'number' ? replicas : 1 },
    status: { replicas: typeof seen === 'number' ? seen : 0, selector: selectorString(obj) },
  };
}

/**
 * GET, PUT and PATCH of <kind>/NAME/scale. A write changes the parent's spec.replicas (the
 * workload controllers then start or stop pods), with the parent's resourceVersion as the
 * Scale's, as on a real server.
 */
export async function handleScale(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  name: string,
): Promise<void> {
  const cur = ctx.store.get<Scalable>(info.resource, path.namespace, name);
  if (cur === undefined) return sendStatus(res, notFound(info.plural, name, info.group));
  const method = req.method ?? 'GET';
  if (method === 'GET') return sendJson(res, 200, JSON.stringify(scaleOf(cur)));
  if (method !== 'PUT' && method !== 'PATCH') {
    return sendStatus(
      res,
      failure(
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource (${method})`,
      ),
    );
  }
  const text = await readBody(req);
  if (text === 'too-large') {
    return sendStatus(res, failure(413, 'RequestEntityTooLarge', 'the request body is too large'));
  }
  const body = parseJson(text);
  if (!body.ok) return sendStatus(res, badRequest(`error decoding request body: ${body.error}`));
  let next: unknown;
  if (method === 'PUT') next = body.value;
  else {
    const type = patchTypeOf(req.headers['content-type']);
    try {
      if (type === 'json') next = jsonPatch(scaleOf(cur), body.value);
      else if (type === 'merge' || type === 'strategic')
        next = mergePatch(scaleOf(cur), body.value);
      else {
        return sendStatus(
          res,
          failure(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format ("${req.headers['content-type'] ?? ''}")`,
          ),
        );
      }
    } catch (e) {
      return sendStatus(
        res,
        failure(422, 'Invalid', e instanceof PatchError ? e.message : String(e)),
      );
    }
  }
  const sentRv = at(next, 'metadata.resourceVersion');
  if (typeof sentRv === 'string' && sentRv !== '' && sentRv !== cur.metadata.resourceVersion) {
    return sendStatus(res, conflict(info, name));
  }
  const replicas = at(next, 'spec.replicas');
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    return sendStatus(
      res,
      invalidStatus(info, name, [
        invalid('spec.replicas', replicas ?? null, 'must be greater than or equal to 0'),
      ]),
    );
  }
  const updated = ctx.store.upsert(info.resource, { ...cur, spec: { ...cur.spec, replicas } });
  sendJson(res, 200, JSON.stringify(scaleOf(updated)));
}
