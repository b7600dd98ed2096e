import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../../lib/kube/types';
import { renderEntry } from '../store/entry';
import { apiVersionOf, type KindInfo } from '../store/kinds';
import { readBody } from './body';
import type { SimContext } from './context';
import { nameCauses, validateObject } from './validation';
import {
  jsonPatch,
  mergePatch,
  PatchError,
  patchTypeOf,
  strategicMergePatch,
  type PatchType,
} from './patch';
import type { ResourcePath } from './paths';
import { checkNamespace, invalidStatus } from './resources';
import { badRequest, conflict, failure, notFound, sendJson, sendStatus } from './status';

const isBuiltin = (info: KindInfo): boolean => info.builtin;

function unsupported(info: KindInfo, contentType: string | undefined) {
  const accepted = ['application/json-patch+json', 'application/merge-patch+json'];
  if (isBuiltin(info)) accepted.push('application/strategic-merge-patch+json');
  accepted.push('application/apply-patch+yaml');
  return failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format ("${contentType ?? ''}") - accepted media types include: ${accepted.join(', ')}`,
  );
}

function parseBody(type: PatchType, text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: type === 'apply' ? parseYaml(text) : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function applyPatch(info: KindInfo, type: PatchType, cur: unknown, patch: unknown): unknown {
  switch (type) {
    case 'json':
      return jsonPatch(cur, patch);
    case 'merge':
      return mergePatch(cur, patch);
    case 'strategic':
      return strategicMergePatch(cur, patch);
    case 'apply':
      // Server-side apply, without managed fields: the applied config merged into the object.
      return isBuiltin(info) ? strategicMergePatch(cur, patch) : mergePatch(cur, patch);
  }
}

/**
 * PATCH a named object: what `kubectl apply` sends for an object that already exists (merge patch
 * for custom resources, strategic merge patch for built-in kinds), `kubectl patch`, and
 * server-side apply (`--server-side`, which also creates the object when it is missing).
 */
export async function handlePatch(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  name: string,
  query: URLSearchParams,
): Promise<void> {
  const contentType = req.headers['content-type'];
  const type = patchTypeOf(contentType);
  if (type === undefined || (type === 'strategic' && !isBuiltin(info))) {
    return sendStatus(res, unsupported(info, contentType));
  }
  const text = await readBody(req);
  if (text === 'too-large') {
    return sendStatus(res, failure(413, 'RequestEntityTooLarge', 'the request body is too large'));
  }
  const body = parseBody(type, text);
  if (!body.ok) return sendStatus(res, badRequest(`error decoding patch: not valid ${type}`));
  if (type === 'apply' && (query.get('fieldManager') ?? '') === '') {
    return sendStatus(res, badRequest('fieldManager: Required value: is required for apply patch'));
  }
  const cur = ctx.store.get(info.resource, path.namespace, name);
  let created = false;
  let base: KubeObject;
  if (cur !== undefined) base = cur;
  else if (type === 'apply') {
    const errs = nameCauses(info, name);
    if (errs.length > 0) return sendStatus(res, invalidStatus(info, name, errs));
    created = true;
    base = {
      apiVersion: apiVersionOf(info.group, path.version),
      kind: info.kind,
      metadata: { name },
    };
  } else return sendStatus(res, notFound(info.plural, name, info.group));

  let patched: unknown;
  try {
    patched = applyPatch(info, type, base, body.value);
  } catch (e) {
    const msg = e instanceof PatchError ? e.message : String(e);
    return sendStatus(res, failure(422, 'Invalid', msg));
  }
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    return sendStatus(res, badRequest('the patched object is not a JSON object'));
  }
  const obj = patched as KubeObject;
  if (typeof obj.metadata !== 'object' || obj.metadata === null || obj.metadata.name !== name) {
    return sendStatus(
      res,
      badRequest(`the name of the object does not match the name on the URL (${name})`),
    );
  }
  if (obj.kind !== undefined && obj.kind !== info.kind) {
    return sendStatus(
      res,
      badRequest(`the patched object is a ${obj.kind}, expected ${info.kind}`),
    );
  }
  if (!checkNamespace(ctx, res, info, path, obj)) return;
  const errs = validateObject(info, obj);
  if (errs.length > 0) return sendStatus(res, invalidStatus(info, name, errs));
  const sentRv = obj.metadata.resourceVersion;
  if (cur !== undefined && sentRv !== undefined && sentRv !== cur.metadata.resourceVersion) {
    return sendStatus(res, conflict(info, name));
  }
  const meta = { ...obj.metadata, name, namespace: path.namespace };
  delete meta.resourceVersion;
  if (cur !== undefined) {
    meta.uid = cur.metadata.uid;
    meta.creationTimestamp = cur.metadata.creationTimestamp;
  } else {
    delete meta.uid;
    delete meta.creationTimestamp;
  }
  const next = { ...obj, apiVersion: base.apiVersion, kind: info.kind, metadata: meta };
  const apiVersion = apiVersionOf(info.group, path.version);
  if (query.getAll('dryRun').includes('All')) {
    return sendJson(res, created ? 201 : 200, JSON.stringify({ ...next, apiVersion }));
  }
  ctx.store.upsert(info.resource, next);
  const e = ctx.store.getEntry(info.resource, path.namespace, name);
  if (e === undefined) return sendStatus(res, failure(500, 'InternalError', 'lost the object'));
  sendJson(res, created ? 201 : 200, renderEntry(e, apiVersion));
}
