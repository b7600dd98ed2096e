import { describe, expect, it } from 'vitest';
import { GET as podGet } from '../../app/api/pods/[namespace]/[name]/route';
import { GET as proxyGet } from '../../app/api/proxies/[namespace]/[name]/route';
import { GET as configDumpGet } from '../../app/api/proxies/[namespace]/[name]/config_dump/route';
import { GET as timelineGet } from '../../app/api/timelines/[namespace]/[name]/route';
import { podPath } from '../../lib/refs/pod-ref';

type Handler = (
  req: Request,
  ctx: { params: Promise<{ namespace: string; name: string }> },
) => Response | Promise<Response>;

const routes: [string, Handler][] = [
  ['/api/pods', podGet],
  ['/api/proxies', proxyGet],
  ['/api/proxies/…/config_dump', configDumpGet],
  ['/api/timelines', timelineGet],
];

/** Next hands route handlers params it has already percent-decoded once (`a%25zz` -> `a%zz`). */
const call = (h: Handler, namespace: string, name: string) =>
  h(new Request(`http://meshdx.test/api/x/${podPath({ namespace, name })}`), {
    params: Promise.resolve({ namespace, name }),
  });

describe('pod routes validate their params at the edge, as JSON errors', () => {
  it.each(routes)(
    '%s: a name with a literal %% is 400 naming the name, not "URI malformed"',
    async (_r, h) => {
      const res = await call(h, 'default', 'a%zz');
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_PARAMETER');
      expect(body.error.message).toContain('name: "a%zz" is not a pod name');
    },
  );

  it.each(routes)('%s: a bad namespace is a 400 naming the namespace', async (_r, h) => {
    const res = await call(h, '../kube-system', 'web-1');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.message).toContain('namespace: "../kube-system" is not a namespace name');
  });
});
