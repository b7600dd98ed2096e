/**
 * A tiny stand-in for a meshdx dashboard, for the report command's tests: the same test ids
 * (loading, error-panel) and /api/cluster, served from memory on a free port.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubServer {
  url: string;
  close(): Promise<void>;
  /** Paths requested, in order (with their query). */
  requests: string[];
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:sans-serif;margin:20px">${body}</body></html>`;

/** A table that arrives after `delayMs`, replacing the loading placeholder, like a query would. */
function loadingThenData(title: string, delayMs: number, rows: number): string {
  const cells = Array.from(
    { length: rows },
    (_, i) =>
      `<tr><td>pod-${i}</td><td style="background:hsl(${(i * 37) % 360},70%,80%)">${i * 7}</td></tr>`,
  ).join('');
  return page(
    title,
    `<h1>${title}</h1><div id="slot"><div data-testid="loading">Loading ${title}…</div></div>` +
      `<script>setTimeout(function(){document.getElementById('slot').innerHTML=` +
      `${JSON.stringify(`<table data-testid="data">${cells}</table>`)};},${delayMs});</script>`,
  );
}

export const STUB_LABEL = 'stub: report-test';

/** The one frozen view the stub keeps: its JSON, spaced and non-ASCII as a server may keep it. */
export const STUB_SNAPSHOT = {
  id: 'c3R1Yi1zbmFwc2hvdC0wMQ',
  body: '{"window":{"from":"2026-11-01T11:00:00.000Z"},  "note":"é ✓"}',
};

export async function startStub(): Promise<StubServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://stub');
    requests.push(u.pathname + u.search);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const frozen = /^\/(api\/)?snapshots\/([A-Za-z0-9_-]{22})$/.exec(u.pathname);
    if (frozen) {
      const [, api, id] = frozen;
      const kept = id === STUB_SNAPSHOT.id;
      if (api) {
        res.writeHead(kept ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          kept
            ? STUB_SNAPSHOT.body
            : JSON.stringify({
                error: { code: 'SNAPSHOT_NOT_FOUND', message: `no snapshot "${id}" in this store` },
              }),
        );
        return;
      }
      return html(
        kept ? 200 : 404,
        kept
          ? loadingThenData(`Snapshot ${id}`, 50, 5)
          : page('Snapshot', `<div data-testid="error-panel">no snapshot "${id}"</div>`),
      );
    }
    switch (u.pathname) {
      case '/api/cluster':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            label: STUB_LABEL,
            source: 'kubeconfig',
            server: 'http://sim',
            reachable: true,
          }),
        );
        return;
      case '/':
        return html(200, loadingThenData('Overview', 300, 40));
      case '/timelines':
        return html(
          200,
          loadingThenData(`Timelines ns=${u.searchParams.get('namespace') ?? 'all'}`, 100, 20),
        );
      case '/proxies':
        return html(
          200,
          page(
            'Proxies',
            '<div role="alert" data-testid="error-panel"><b>Could not load proxies</b>' +
              '<p>API_UNREACHABLE: the API server at https://10.0.0.1 did not answer</p></div>',
          ),
        );
      case '/stuck':
        return html(200, page('Stuck', '<div data-testid="loading">Loading forever…</div>'));
      case '/incidents':
        return html(200, loadingThenData(`Incident ${u.searchParams.get('at') ?? ''}`, 50, 10));
      default:
        return html(404, page('Not found', '<h1>404: this page could not be found</h1>'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
