import { describe, it, expect } from 'vitest';
import { portForwardHint, probeMeshdx, type FetchLike } from './probe';

const answer =
  (status: number, body: string): FetchLike =>
  () =>
    Promise.resolve(
      new Response(body, { status, headers: { 'content-type': 'application/json' } }),
    );

const INFO = {
  label: 'kind-dev',
  source: 'kubeconfig',
  server: 'https://127.0.0.1:6443',
  reachable: true,
};

describe('probeMeshdx', () => {
  it('reads the cluster label from /api/cluster', async () => {
    let asked = '';
    const f: FetchLike = (url, init) => {
      asked = url;
      return answer(200, JSON.stringify(INFO))(url, init);
    };
    expect(await probeMeshdx('http://localhost:3000/sub/', f)).toEqual({
      ok: true,
      cluster: 'kind-dev',
      clusterReachable: true,
    });
    expect(asked).toBe('http://localhost:3000/sub/api/cluster');
  });

  it('meshdx up but its cluster down is still meshdx', async () => {
    const body = {
      ...INFO,
      reachable: false,
      error: { code: 'API_UNREACHABLE', message: 'connect ECONNREFUSED' },
    };
    expect(await probeMeshdx('http://h/', answer(200, JSON.stringify(body)))).toEqual({
      ok: true,
      cluster: 'kind-dev',
      clusterReachable: false,
      clusterError: 'API_UNREACHABLE: connect ECONNREFUSED',
    });
  });

  it('a refused connection names the URL, the cause and the port-forward', async () => {
    const refused: FetchLike = () =>
      Promise.reject(
        Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        }),
      );
    const r = await probeMeshdx('http://localhost:8080/', refused);
    expect(r).toEqual({
      ok: false,
      message:
        'meshdx is not reachable at http://localhost:8080/ (GET http://localhost:8080/api/cluster: ECONNREFUSED). ' +
        'Is the port-forward running? e.g. kubectl -n meshdx port-forward svc/meshdx 8080:80',
    });
  });

  it('something else on the port is not meshdx', async () => {
    const html = await probeMeshdx('http://h:9090/', answer(200, '<html>grafana</html>'));
    expect(html.ok).toBe(false);
    if (!html.ok) expect(html.message).toContain('not meshdx cluster info');
    const notFound = await probeMeshdx('http://h:9090/', answer(404, '{"x":1}'));
    expect(notFound.ok).toBe(false);
    if (!notFound.ok) expect(notFound.message).toContain('HTTP 404');
  });

  it('port-forward hint uses the default port of the scheme', () => {
    expect(portForwardHint('http://localhost/')).toBe(
      'kubectl -n meshdx port-forward svc/meshdx 80:80',
    );
    expect(portForwardHint('https://localhost/')).toContain('443:80');
  });
});
