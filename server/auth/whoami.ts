/**
 * Who a token is, as the API server says: a SelfSubjectReview (authentication.k8s.io/v1, GA
 * in Kubernetes 1.28) made with the token itself, which any authenticated user may create.
 * A refused token is a 401 from the API server, reported as such.
 */
import { z } from 'zod';
import { isKubeError } from '../kube/errors';
import type { ClusterSource } from '../kube/source';
import { KubeTransport } from '../kube/transport';
import { sourceAs } from '../runtime/user-source';

const ReviewSchema = z.object({
  status: z.object({
    userInfo: z.object({
      username: z.string().min(1),
      groups: z.array(z.string()).optional(),
    }),
  }),
});

export type WhoAmI =
  | { ok: true; user: string; groups: string[] }
  | { ok: false; code: 'TOKEN_REFUSED' | 'REVIEW_FAILED'; message: string };

const REVIEW_PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

export async function whoAmI(base: ClusterSource, token: string): Promise<WhoAmI> {
  const src = sourceAs(base, {
    mode: 'token',
    token,
    user: '?',
    groups: [],
    context: base.context,
  });
  const t = new KubeTransport(src.kc, { qps: 5, burst: 5 });
  try {
    const res = await t.request(REVIEW_PATH, {
      method: 'POST',
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    const parsed = ReviewSchema.safeParse(JSON.parse(res.body));
    if (!parsed.success)
      return {
        ok: false,
        code: 'REVIEW_FAILED',
        message: 'the API server answered the SelfSubjectReview without a user name',
      };
    const u = parsed.data.status.userInfo;
    return { ok: true, user: u.username, groups: u.groups ?? [] };
  } catch (e) {
    if (isKubeError(e) && e.status === 401)
      return {
        ok: false,
        code: 'TOKEN_REFUSED',
        message: `the API server at ${base.server} refused this token (401 Unauthorized): it is unknown, expired or revoked`,
      };
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: 'REVIEW_FAILED',
      message: `asking the API server at ${base.server} who this token is failed: ${why.replaceAll(token, '[token]')}`,
    };
  } finally {
    t.close();
  }
}
