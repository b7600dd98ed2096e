import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../lib/kube/types';
import { renderEntry } from '../store/entry';
import { apiVersionOf, type KindInfo } from '../store/kinds';
import { parseJson, readBody } from './body';
import type { SimContext } from './context';
import { requestFilter } from './filter';
import {
  minimumResourceVersion,
  tooLargeResourceVersion,
  waitForResourceVersion,
} from './freshness';
import { pageOf } from './paging';
import type { ResourcePath } from './paths';
import { badRequest, conflict, failure, notFound, sendJson, sendStatus } from './status';
import { includeObjectOf, renderTable, responseForm } from './table';
import { nameCauses, validateObject, type StatusCause } from './validation';

/** Table output when the Accept header asks for it; false when the caller serves plain JSON. */
function tryTable(
  ctx: SimContext,
  res: ServerResponse,
  info: KindInfo,
  apiVersion: string,
  accept: string | undefined,
  query: URLSearchParams,
  objects: () => KubeObject[],
  page: { resourceVersion?: string; continue?: string; remainingItemCount?: number } = {},
): boolean {
  const form = responseForm(accept);
  if (form === 'json') return false;
  if (form === 'unsupported') {
    sendStatus(
      res,
      failure(
        406,
        'NotAcceptable',
        `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io`,
      ),
    );
    return true;
  }
  const includeObject = includeObjectOf(query.get('includeObject'));
  if (includeObject === null) {
    sendStatus(
      res,
      badRequest(
        `includeObject: Unsupported value: "${query.get('includeObject') ?? ''}": supported values: "Metadata", "None", "Object"`,
      ),
    );
    return true;
  }
  sendJson(
    res,
    200,
    renderTable(info.resource, objects(), {
      now: ctx.clock.now(),
      resourceVersion: page.resourceVersion ?? String(ctx.store.resourceVersion()),
      continue: page.continue,
      remainingItemCount: page.remainingItemCount,
      includeObject,
      apiVersion,
      kind: info.kind,
    }),
  );
  return true;
}

/** GET a collection (without ?watch): a <Kind>List of the matching objects, serialised once each. */
export async function handleList(
  ctx: SimContext,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  query: URLSearchParams,
  accept?: string,
): Promise<void> {
  const f = requestFilter(info, path.namespace, query);
  if (!f.ok) return sendStatus(res, f.status);
  const minRv = minimumResourceVersion(query.get('resourceVersion'));
  if (minRv !== undefined && !(await waitForResourceVersion(ctx, minRv))) {
    return sendStatus(res, tooLargeResourceVersion(minRv, ctx.store.resourceVersion()));
  }
  const apiVersion = apiVersionOf(info.group, path.version);
  const page = pageOf(
    ctx.store.entries(info.resource).filter((e) => f.filter(e.obj)),
    query,
    ctx.store.resourceVersion(),
    (rv) => ctx.store.changesSince(rv) === 'expired',
  );
  if ('kind' in page) return sendStatus(res, page);
  const objects = () => page.entries.map((e) => e.obj);
  if (tryTable(ctx, res, info, apiVersion, accept, query, objects, page)) return;
  const items = page.entries.map((e) => renderEntry(e, apiVersion));
  const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
  if (page.continue !== undefined) {
    metadata.continue = page.continue;
    metadata.remainingItemCount = page.remainingItemCount;
  }
  const head = JSON.stringify({ apiVersion, kind: `${info.kind}List`, metadata });
  sendJson(res, 200, `${head.slice(0, -1)},"items":[${items.join(',')}]}`);
}

export function handleGet(
  ctx: SimContext,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  name: string,
  accept?: string,
  query: URLSearchParams = new URLSearchParams(),
): void {
  const e = ctx.store.getEntry(info.resource, path.namespace, name);
  if (e === undefined) return sendStatus(res, notFound(info.plural, name, info.group));
  const apiVersion = apiVersionOf(info.group, path.version);
  if (tryTable(ctx, res, info, apiVersion, accept, query, () => [e.obj])) return;
  sendJson(res, 200, renderEntry(e, apiVersion));
}

type BodyResult = { ok: true; obj: KubeObject } | { ok: false };

/** Read and check a POST/PUT body: JSON object of the right kind with metadata. */
async function readObject(
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
): Promise<BodyResult> {
  const text = await readBody(req);
  if (text === 'too-large') {
    sendStatus(res, failure(413, 'RequestEntityTooLarge', 'the request body is too large'));
    return { ok: false };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    sendStatus(res, badRequest(`error decoding request body: ${parsed.error}`));
    return { ok: false };
  }
  const v = parsed.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    sendStatus(res, badRequest('the request body must be a JSON object'));
    return { ok: false };
  }
  const o = v as Record<string, unknown>;
  if (o.kind !== undefined && o.kind !== info.kind) {
    sendStatus(res, badRequest(`the body is a ${String(o.kind)}, expected ${info.kind}`));
    return { ok: false };
  }
  const meta = o.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    sendStatus(res, badRequest('metadata must be an object'));
    return { ok: false };
  }
  return { ok: true, obj: o as unknown as KubeObject };
}

/**
 * 422 Invalid, as apierrors.NewInvalid builds it: the message names the group-qualified kind and
 * lists the field errors (bracketed when several), and each error is a cause that kubectl prints
 * as `The Service "x" is invalid: spec.ports[1].name: Duplicate value: "http"`.
 */
export function invalidStatus(info: KindInfo, name: string, causes: StatusCause[]) {
  const gk = info.group === '' ? info.kind : `${info.kind}.${info.group}`;
  const errs = causes.map((c) => `${c.field}: ${c.message}`);
  const list = errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`;
  return failure(422, 'Invalid', `${gk} "${name}" is invalid: ${list}`, {
    name,
    group: info.group,
    kind: info.kind,
    causes: causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field })),
  });
}

/** Namespace checks shared by create, replace and patch. */
export function checkNamespace(
  ctx: SimContext,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  obj: KubeObject,
): boolean {
  if (!info.namespaced) return true;
  if (path.namespace === undefined) {
    sendStatus(
      res,
      failure(405, 'MethodNotAllowed', `${info.plural} must be created in a namespace`),
    );
    return false;
  }
  if (obj.metadata.namespace !== undefined && obj.metadata.namespace !== path.namespace) {
    sendStatus(
      res,
      badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      ),
    );
    return false;
  }
  if (ctx.store.get('namespaces', undefined, path.namespace) === undefined) {
    sendStatus(res, notFound('namespaces', path.namespace));
    return false;
  }
  return true;
}

export async function handleCreate(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  query: URLSearchParams = new URLSearchParams(),
): Promise<void> {
  const body = await readObject(req, res, info);
  if (!body.ok) return;
  const obj = body.obj;
  let name = obj.metadata.name;
  if ((name === undefined || name === '') && typeof obj.metadata.generateName === 'string') {
    name = `${obj.metadata.generateName}${Math.random().toString(36).slice(2, 7)}`;
  }
  if (typeof name !== 'string' || name === '') {
    return sendStatus(res, invalidStatus(info, '', nameCauses(info, undefined)));
  }
  const errs = validateObject(info, { ...obj, metadata: { ...obj.metadata, name } });
  if (errs.length > 0) return sendStatus(res, invalidStatus(info, name, errs));
  if (!checkNamespace(ctx, res, info, path, obj)) return;
  if (ctx.store.get(info.resource, path.namespace, name) !== undefined) {
    const gr = info.group === '' ? info.plural : `${info.plural}.${info.group}`;
    return sendStatus(
      res,
      failure(409, 'AlreadyExists', `${gr} "${name}" already exists`, {
        name,
        group: info.group,
        kind: info.plural,
      }),
    );
  }
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, ...meta } = obj.metadata;
  if (query.getAll('dryRun').includes('All')) {
    // --dry-run=server: validated as a create would be, nothing stored
    const apiVersion = apiVersionOf(info.group, path.version);
    const dry = { ...obj, apiVersion, metadata: { ...meta, name, namespace: path.namespace } };
    return sendJson(res, 201, JSON.stringify(dry));
  }
  ctx.store.upsert(info.resource, {
    ...obj,
    metadata: { ...meta, name, namespace: path.namespace },
  });
  const e = ctx.store.getEntry(info.resource, path.namespace, name);
  if (e === undefined) return sendStatus(res, failure(500, 'InternalError', 'lost the new object'));
  sendJson(res, 201, renderEntry(e, apiVersionOf(info.group, path.version)));
}

export async function handleReplace(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  name: string,
): Promise<void> {
  const body = await readObject(req, res, info);
  if (!body.ok) return;
  const obj = body.obj;
  if (obj.metadata.name !== name) {
    return sendStatus(
      res,
      badRequest(
        `the name of the object (${String(obj.metadata.name)}) does not match the name on the URL (${name})`,
      ),
    );
  }
  if (!checkNamespace(ctx, res, info, path, obj)) return;
  const cur = ctx.store.get(info.resource, path.namespace, name);
  if (cur === undefined) return sendStatus(res, notFound(info.plural, name, info.group));
  const errs = validateObject(info, obj);
  if (errs.length > 0) return sendStatus(res, invalidStatus(info, name, errs));
  const sentRv = obj.metadata.resourceVersion;
  if (sentRv !== undefined && sentRv !== '' && sentRv !== cur.metadata.resourceVersion) {
    return sendStatus(res, conflict(info, name));
  }
  const meta = {
    ...obj.metadata,
    namespace: path.namespace,
    uid: cur.metadata.uid,
    creationTimestamp: cur.metadata.creationTimestamp,
  };
  delete meta.resourceVersion;
  ctx.store.upsert(info.resource, { ...obj, metadata: meta });
  const e = ctx.store.getEntry(info.resource, path.namespace, name);
  if (e === undefined) return sendStatus(res, failure(500, 'InternalError', 'lost the object'));
  sendJson(res, 200, renderEntry(e, apiVersionOf(info.group, path.version)));
}

export function handleDelete(
  ctx: SimContext,
  res: ServerResponse,
  info: KindInfo,
  path: ResourcePath,
  name: string,
): void {
  const e = ctx.store.getEntry(info.resource, path.namespace, name);
  if (e === undefined) return sendStatus(res, notFound(info.plural, name, info.group));
  ctx.store.remove(info.resource, path.namespace, name);
  sendJson(res, 200, renderEntry(e, apiVersionOf(info.group, path.version)));
}
