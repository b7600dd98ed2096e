import { describe, expect, it } from 'vitest';
import { badParameter } from '../../lib/api/request-error';
import { errorText, KubeError, malformedAnswer } from '../../server/kube/errors';
import { UnknownContextError } from '../../server/kube/source';
import { toErrorResult } from '../../server/http';

describe('errors map by meaning, not by JavaScript class', () => {
  it('an upstream answer meshdx cannot read is a 502 that names the upstream', () => {
    const r = toErrorResult(
      malformedAnswer('Envoy admin shop/web-1 static_clusters', 'not JSON: <html>'),
    );
    expect(r.status).toBe(502);
    expect(r.body.error.code).toBe('UPSTREAM_MALFORMED');
    expect(r.body.error.message).toContain('Envoy admin shop/web-1');
  });

  it("a SyntaxError of meshdx's own is not blamed on the request", () => {
    let thrown: unknown;
    try {
      JSON.parse('{oops');
    } catch (e) {
      thrown = e;
    }
    const r = toErrorResult(thrown);
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL');
  });

  it('a bad parameter is a 400 naming it; an unknown context a 404 listing the known ones', () => {
    const bad = toErrorResult(badParameter('from', '"1" is not an RFC 3339 time'));
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'INVALID_PARAMETER' } } });
    expect(bad.body.error.message).toBe('from: "1" is not an RFC 3339 time');
    const ctx = toErrorResult(new UnknownContextError('prod', ['dev', 'staging']));
    expect(ctx.status).toBe(404);
    expect(ctx.body.error.code).toBe('UNKNOWN_CONTEXT');
    expect(ctx.body.error.hint).toContain('dev, staging');
  });

  it('a missing pod stays a 404; a proxy admin error status is the upstream, not NOT_FOUND', () => {
    const gone = new KubeError('http', 'pod shop/x does not exist', { status: 404 });
    expect(toErrorResult(gone).status).toBe(404);
    const admin = new KubeError('http', 'Envoy admin of shop/x /config_dump answered 503: no');
    expect(toErrorResult(admin)).toMatchObject({
      status: 502,
      body: { error: { code: 'API_ERROR' } },
    });
  });

  it('never says [object Object]', () => {
    expect(errorText({ message: 'socket hang up' })).toBe('socket hang up');
    expect(errorText({ type: 'error', error: new Error('ECONNRESET') })).toBe('ECONNRESET');
    expect(errorText({ code: 1006 })).toBe('{"code":1006}');
    expect(errorText(Object.create(null) as object)).not.toContain('[object Object]');
    expect(toErrorResult({ weird: true }).body.error.message).toBe('{"weird":true}');
  });
});
