import type { IncomingMessage, ServerResponse } from 'node:http';
import { findKind } from '../store/kinds';
import { queryBool, type SimContext } from './context';
import { coreVersions, group, groupList, resourceList, VERSION_INFO } from './discovery';
import { parseApiPath } from './paths';
import { openApiV3Index, openApiV3Served, parseOpenApiV3Path } from './openapi';
import { OPENAPI_V2_PROTOBUF, openApiV2Json, openApiV2Protobuf, wantsProtobuf } from './openapiv2';
import { handlePatch } from './patchhandler';
import { handlePodLog } from './podlog';
import { handlePodProxy } from './podproxy';
import { handleScale, SCALABLE } from './scale';
import { handleCreate, handleDelete, handleGet, handleList, handleReplace } from './resources';
import { badRequest, failure, sendJson, sendStatus } from './status';
import type { WatchRegistry } from './watch';
import { handleWatch } from './watch';

const notServed = () =>
  failure(404, 'NotFound', 'the server could not find the requested resource');
const methodNotAllowed = (m: string | undefined) =>
  failure(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource (${m ?? ''})`,
  );

/** Every Kubernetes API route the simulator serves (everything but /_sim and upgrades). */
export async function routeApi(
  ctx: SimContext,
  watches: WatchRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const p = url.pathname;
  const method = req.method ?? 'GET';
  if (method === 'GET') {
    if (p === '/version' || p === '/version/')
      return sendJson(res, 200, JSON.stringify(VERSION_INFO));
    if (p === '/api' || p === '/api/') {
      return sendJson(res, 200, JSON.stringify(coreVersions(req.headers.host ?? '127.0.0.1')));
    }
    if (p === '/apis' || p === '/apis/') return sendJson(res, 200, JSON.stringify(groupList()));
    if (p === '/healthz' || p === '/livez' || p === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (p === '/openapi/v2' || p === '/openapi/v2/') {
      if (!wantsProtobuf(req.headers.accept)) return sendJson(res, 200, openApiV2Json());
      const body = openApiV2Protobuf();
      res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': body.length });
      res.end(body);
      return;
    }
    if (p === '/openapi/v3' || p === '/openapi/v3/') {
      return sendJson(res, 200, JSON.stringify(openApiV3Index()));
    }
    const oa = parseOpenApiV3Path(p);
    if (oa !== undefined) {
      const doc = openApiV3Served(oa.group, oa.version);
      return doc === undefined ? sendStatus(res, notServed()) : sendJson(res, 200, doc.body);
    }
    const g = /^\/apis\/([^/]+)\/?$/.exec(p);
    if (g !== null) {
      const body = group(g[1] ?? '');
      return body === undefined
        ? sendStatus(res, notServed())
        : sendJson(res, 200, JSON.stringify(body));
    }
  }
  const parsed = parseApiPath(url.pathname);
  if (parsed.type === 'invalid') return sendStatus(res, badRequest(parsed.error));
  if (parsed.type === 'other') return sendStatus(res, notServed());
  if (parsed.type === 'groupVersion') {
    const list = method === 'GET' ? resourceList(parsed.group, parsed.version) : undefined;
    return list === undefined
      ? sendStatus(res, notServed())
      : sendJson(res, 200, JSON.stringify(list));
  }
  const path = parsed.path;
  const info = findKind(path.group, path.version, path.resource);
  if (info === undefined) return sendStatus(res, notServed());
  if (info.namespaced === false && path.namespace !== undefined)
    return sendStatus(res, notServed());

  if (path.subresource === 'scale' && SCALABLE.has(info.resource) && path.name !== undefined) {
    return handleScale(ctx, req, res, info, path, path.name);
  }
  if (path.subresource !== undefined) {
    const ns = path.namespace;
    const name = path.name ?? '';
    if (info.resource !== 'pods' || ns === undefined) return sendStatus(res, notServed());
    switch (path.subresource) {
      case 'log':
        if (method !== 'GET') return sendStatus(res, methodNotAllowed(method));
        return handlePodLog(ctx, req, res, ns, name, url.searchParams);
      case 'proxy':
        return handlePodProxy(ctx, req, res, ns, name, path.rest ?? '/', url.searchParams);
      case 'portforward':
        return sendStatus(res, badRequest('Upgrade request required'));
      default:
        return sendStatus(res, notServed());
    }
  }

  const watching = queryBool(url.searchParams.get('watch'));
  if (path.name === undefined) {
    if (method === 'GET') {
      return watching
        ? handleWatch(ctx, watches, req, res, info, path, url.searchParams)
        : handleList(ctx, res, info, path, url.searchParams, req.headers.accept);
    }
    if (method === 'POST') return handleCreate(ctx, req, res, info, path, url.searchParams);
    return sendStatus(res, methodNotAllowed(method));
  }
  switch (method) {
    case 'GET':
      return watching
        ? handleWatch(ctx, watches, req, res, info, path, url.searchParams)
        : handleGet(ctx, res, info, path, path.name, req.headers.accept, url.searchParams);
    case 'PUT':
      return handleReplace(ctx, req, res, info, path, path.name);
    case 'PATCH':
      return handlePatch(ctx, req, res, info, path, path.name, url.searchParams);
    case 'DELETE':
      return handleDelete(ctx, res, info, path, path.name);
    default:
      return sendStatus(res, methodNotAllowed(method));
  }
}
