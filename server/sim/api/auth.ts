/**
 * Authentication, impersonation and authorization, as kube-apiserver does them, when the
 * simulator is given a static token file (kube-apiserver's --token-auth-file CSV format:
 * `token,user,uid,"group1,group2"`). Without one, every caller is the simulator's admin (the
 * behaviour before: any client of the simulated cluster may do anything).
 *
 * - An `Authorization: Bearer` token that is neither in the file nor the simulator's own
 *   kubeconfig token, or no token at all, is 401 Unauthorized.
 * - The simulator's own kubeconfig identity is in system:masters (like a kubeadm admin cert).
 * - `Impersonate-User` / `Impersonate-Group` need `impersonate` on users / groups; the request
 *   then runs as the impersonated user (plus system:authenticated).
 * - Then RBAC (rbac.ts) over the stored Roles and bindings: a refusal is the API server's 403.
 * Requests are counted per (effective) user, so a test can prove whose credentials arrived.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIM_TOKEN } from './kubeconfig';
import { queryBool, type SimContext } from './context';
import { parseApiPath } from './paths';
import { forbiddenMessage, rbacAllows, type Attributes, type UserInfo } from './rbac';
import { badRequest, failure, sendJson, sendStatus, type StatusObject } from './status';

export type { UserInfo } from './rbac';

/** The simulator's own kubeconfig identity: allowed everything. */
export const SIM_ADMIN: UserInfo = {
  name: 'meshdx-sim-admin',
  uid: 'meshdx-sim-admin',
  groups: ['system:masters', 'system:authenticated'],
};

export class TokenFileError extends Error {
  override name = 'TokenFileError';
}

/** One CSV record (RFC 4180 quoting, as Go's encoding/csv reads it). */
function csvFields(line: string, lineNo: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new TokenFileError(`line ${lineNo}: unterminated quoted field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += line[i++];
      }
      if (i < line.length && line[i] !== ',')
        throw new TokenFileError(`line ${lineNo}: text after a quoted field`);
      out.push(v);
      i++;
    } else {
      const end = line.indexOf(',', i);
      const stop = end < 0 ? line.length : end;
      out.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return out;
}

/**
 * Reads a static token file. Blank lines are skipped; a record needs at least token, user name
 * and uid; the fourth column is the comma-separated groups. Errors name the line.
 */
export function parseTokenFile(text: string): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, idx) => {
    const lineNo = idx + 1;
    if (line.trim() === '') return;
    const f = csvFields(line, lineNo);
    if (f.length < 3)
      throw new TokenFileError(
        `line ${lineNo}: a token file record needs at least 3 columns (token, user name, user uid), found ${f.length}`,
      );
    const [token = '', name = '', uid = '', groups = ''] = f;
    if (token === '') throw new TokenFileError(`line ${lineNo}: empty token`);
    if (name === '') throw new TokenFileError(`line ${lineNo}: empty user name`);
    if (token === SIM_TOKEN)
      throw new TokenFileError(`line ${lineNo}: "${SIM_TOKEN}" is the simulator's own token`);
    if (users.has(token))
      throw new TokenFileError(
        `line ${lineNo}: this token is already listed for ${users.get(token)?.name}`,
      );
    const list = groups
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== '');
    users.set(token, { name, uid, groups: [...list, 'system:authenticated'] });
  });
  return users;
}

function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** The request's attributes in RBAC's terms; null for non-resource URLs (discovery, /version). */
export function attributesOf(method: string, url: URL, upgrade: boolean): Attributes | null {
  const parsed = parseApiPath(url.pathname);
  if (parsed.type !== 'resource') return null;
  const p = parsed.path;
  const m = method.toUpperCase();
  let verb: string;
  if (p.subresource !== undefined && p.subresource !== 'status' && p.subresource !== 'scale')
    // connect subresources: the verb is the HTTP method's; a port-forward websocket is a create
    verb = upgrade ? 'create' : m === 'POST' ? 'create' : m === 'GET' ? 'get' : m.toLowerCase();
  else if (m === 'GET')
    verb = queryBool(url.searchParams.get('watch')) ? 'watch' : p.name ? 'get' : 'list';
  else if (m === 'POST') verb = 'create';
  else if (m === 'PUT') verb = 'update';
  else if (m === 'PATCH') verb = 'patch';
  else if (m === 'DELETE') verb = p.name ? 'delete' : 'deletecollection';
  else verb = m.toLowerCase();
  return {
    verb,
    group: p.group,
    resource: p.resource,
    ...(p.subresource !== undefined ? { subresource: p.subresource } : {}),
    ...(p.namespace !== undefined ? { namespace: p.namespace } : {}),
    ...(p.name !== undefined ? { name: p.name } : {}),
  };
}

const SELF_SUBJECT_REVIEW = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

/** Every authenticated user may do these (system:basic-user): ask who they are, and what they may do. */
function basicUserAllows(a: Attributes): boolean {
  return (
    a.verb === 'create' &&
    ((a.group === 'authentication.k8s.io' && a.resource === 'selfsubjectreviews') ||
      (a.group === 'authorization.k8s.io' && a.resource === 'selfsubjectaccessreviews'))
  );
}

/**
 * Authenticates, impersonates and authorizes one request: the user it runs as, or the Status
 * (401, 403, 400) the API server would answer.
 */
export function admit(
  ctx: SimContext,
  req: IncomingMessage,
  url: URL,
  upgrade = false,
): { user: UserInfo } | { refusal: StatusObject } {
  const auth = ctx.auth;
  const method = req.method ?? 'GET';
  if (auth === undefined) return { user: SIM_ADMIN };
  const token = bearer(req);
  const caller =
    token === SIM_TOKEN ? SIM_ADMIN : token === null ? undefined : auth.tokens.get(token);
  if (caller === undefined) return { refusal: failure(401, 'Unauthorized', 'Unauthorized') };

  let user = caller;
  const impUser = req.headersDistinct['impersonate-user']?.[0];
  const impGroups = req.headersDistinct['impersonate-group'] ?? [];
  if (impUser === undefined && impGroups.length > 0)
    return {
      refusal: badRequest(`requested ${JSON.stringify(impGroups)} without impersonating a user`),
    };
  if (impUser !== undefined) {
    const checks: Attributes[] = [
      { verb: 'impersonate', group: '', resource: 'users', name: impUser },
      ...impGroups.map((g) => ({ verb: 'impersonate', group: '', resource: 'groups', name: g })),
    ];
    const denied = checks.find((a) => !rbacAllows(ctx.store, caller, a));
    if (denied) return { refusal: forbidden(caller, denied) };
    user = { name: impUser, uid: '', groups: [...impGroups, 'system:authenticated'] };
    auth.noteImpersonation(caller, user);
  }
  auth.note(user, method, url);

  const a = attributesOf(method, url, upgrade);
  // non-resource URLs (discovery, /version, /openapi, /healthz): system:discovery
  if (a === null || basicUserAllows(a) || rbacAllows(ctx.store, user, a)) return { user };
  return { refusal: forbidden(user, a) };
}

function forbidden(u: UserInfo, a: Attributes): StatusObject {
  return failure(403, 'Forbidden', forbiddenMessage(u, a), {
    ...(a.name !== undefined ? { name: a.name } : {}),
    ...(a.group !== '' ? { group: a.group } : {}),
    kind: a.resource,
  });
}

/** POST selfsubjectreviews: who the caller is, as the API server saw them. */
export function handleSelfSubjectReview(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  user: UserInfo,
): boolean {
  if (url.pathname !== SELF_SUBJECT_REVIEW) return false;
  if ((req.method ?? 'GET') !== 'POST') {
    sendStatus(res, failure(405, 'MethodNotAllowed', 'selfsubjectreviews can only be created'));
    return true;
  }
  req.resume();
  sendJson(
    res,
    201,
    JSON.stringify({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      status: {
        userInfo: {
          username: user.name,
          ...(user.uid ? { uid: user.uid } : {}),
          groups: user.groups,
        },
      },
    }),
  );
  return true;
}
