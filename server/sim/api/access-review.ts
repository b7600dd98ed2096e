/**
 * POST selfsubjectaccessreviews (authorization.k8s.io/v1): whether the caller may do what the
 * review's spec.resourceAttributes name, decided by the same RBAC authorizer as every request
 * (rbac.ts), as kube-apiserver answers it. Every authenticated user may ask (system:basic-user).
 * A namespace left empty asks for every namespace: only a cluster-wide grant allows it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimContext } from './context';
import { parseJson, readBody } from './body';
import { rbacAllows, type Attributes, type UserInfo } from './rbac';
import { badRequest, failure, sendJson, sendStatus } from './status';

const PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

interface ResourceAttributes {
  namespace?: unknown;
  verb?: unknown;
  group?: unknown;
  resource?: unknown;
  subresource?: unknown;
  name?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export async function handleSelfSubjectAccessReview(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  user: UserInfo,
): Promise<boolean> {
  if (url.pathname !== PATH) return false;
  if ((req.method ?? 'GET') !== 'POST') {
    sendStatus(
      res,
      failure(405, 'MethodNotAllowed', 'selfsubjectaccessreviews can only be created'),
    );
    return true;
  }
  const body = await readBody(req);
  const parsed = body === 'too-large' ? null : parseJson(body);
  const review = parsed?.ok ? (parsed.value as { spec?: { resourceAttributes?: unknown } }) : null;
  const ra = review?.spec?.resourceAttributes as ResourceAttributes | undefined;
  if (!ra || typeof ra !== 'object') {
    sendStatus(
      res,
      badRequest(
        'spec.resourceAttributes: Required value (this simulator answers resource reviews only)',
      ),
    );
    return true;
  }
  const ns = text(ra.namespace);
  const a: Attributes = {
    verb: text(ra.verb),
    group: text(ra.group),
    resource: text(ra.resource),
    ...(text(ra.subresource) ? { subresource: text(ra.subresource) } : {}),
    ...(ns ? { namespace: ns } : {}),
    ...(text(ra.name) ? { name: text(ra.name) } : {}),
  };
  const allowed = a.verb !== '' && a.resource !== '' && rbacAllows(ctx.store, user, a);
  sendJson(
    res,
    201,
    JSON.stringify({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: ra },
      status: { allowed, ...(allowed ? {} : { reason: '' }) },
    }),
  );
  return true;
}
