import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as uploadPost } from '../../app/api/incidents/upload/route';
import { POST as freezePost } from '../../app/api/snapshots/route';
import { expectError, url, useEdgeCluster, type ErrorBody } from './support';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

/**
 * Inputs that read nothing are refused, naming what is wrong, instead of answered as if they had
 * been read: an upload with no access-log line in it, a format string naming an operator Envoy
 * does not have or none at all, a snapshot of a link with a parameter its page does not read.
 */
useEdgeCluster('inputs');

const LINE =
  '[2026-11-01T11:59:00.000Z] "GET /cart HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 19 0 - "-" "curl" "x" "cart.shop:80" "-" outbound|80||cart.shop.svc.cluster.local - 10.96.0.10:80 10.244.1.17:41234 - default\n';

const upload = (query: string, body: string) =>
  uploadPost(
    new Request(url(`/api/incidents/upload${query}`), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body,
    }),
  );

describe('uploads that read nothing', () => {
  it('text that is no access log is a 422 saying no line was a record', async () => {
    const res = await upload('', 'hello world\nthis is a shopping list\neggs, milk\n');
    expect(res.status).toBe(422);
    const e = (await res.json()) as ErrorBody;
    expect(e.error.code).toBe('NO_ACCESS_LOG_RECORDS');
    expect(e.error.message).toContain('none of its 3 lines is an access-log record');
  });

  it('format=%BOGUS% is a 400 naming the operator', async () => {
    const res = await upload(`?format=${encodeURIComponent('%BOGUS%')}`, LINE);
    await expectError(res.clone(), 400, 'INVALID_PARAMETER', 'format');
    expect(((await res.json()) as ErrorBody).error.message).toContain('%BOGUS%');
  });

  it('a log with a record among other lines is read', async () => {
    expect((await upload('', `a note\n${LINE}`)).status).toBe(200);
  });
});

describe('snapshot links', () => {
  const freeze = (body: unknown) =>
    freezePost(
      new Request(url('/api/snapshots'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );

  it('a query with a parameter the page does not read is a 400 naming it', async () => {
    for (const view of ['incidents', 'timelines']) {
      const res = await freeze({ view, query: '?bogus=1' });
      await expectError(res.clone(), 400, 'INVALID_PARAMETER', 'query');
      expect(((await res.json()) as ErrorBody).error.message).toContain('bogus');
    }
    const misspelt = await freeze({ view: 'incidents', query: '?namepsace=shop' });
    const hint = ((await misspelt.json()) as { error: { hint?: string } }).error.hint;
    expect(hint).toContain('namespace');
  });
});

describe('meshdx accesslog --format', () => {
  const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'meshdx.mjs');
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-edges-inputs-'));
    fs.writeFileSync(path.join(dir, 'access.log'), LINE);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const meshdx = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      timeout: CHILD_PROCESS_GUARD_MS,
    });

  it('an unknown operator is exit 2 naming it', () => {
    const r = meshdx('accesslog', path.join(dir, 'access.log'), '--format', '%BOGUS%');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('%BOGUS%');
  });

  it('a format with no operator is exit 2 saying it reads nothing', () => {
    const r = meshdx('accesslog', path.join(dir, 'access.log'), '--format', 'plain words');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('no %OPERATOR%');
  });

  it("a format of Envoy's operators is read", () => {
    const r = meshdx(
      'accesslog',
      path.join(dir, 'access.log'),
      '--format',
      '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% "%UPSTREAM_TRANSPORT_FAILURE_REASON%" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%" %UPSTREAM_CLUSTER_RAW% %UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME% %ROUTE_NAME%',
    );
    expect(r.status, r.stderr).toBe(0);
  });
});
