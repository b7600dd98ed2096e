/**
 * A read-only Kubernetes API server on loopback that answers from one `istioctl bug-report`
 * archive: list, get and watch of the objects it holds (pods, services, EndpointSlices,
 * configmaps, events, nodes, namespaces, Istio's resources), pods/log from each proxy's
 * `istio-proxy.log`, pods/proxy and pods/portforward for the proxies' Envoy admin and
 * Prometheus listener and istiod's debug port, from their files. meshdx reaches it through the
 * same client code as any cluster: a kubeconfig context per archive is the only difference.
 * Its `Date` header is the archive's capture time (it does not run on), so the
 * runtime's clock is the capture's. `GET /meshdx/archive` says what it serves, when it was
 * captured and what it lacks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ARCHIVE_PLATFORM } from '../../lib/api/cluster';
import type { ArchiveIndex } from '../../lib/archive/read';
import type { KubeObject } from '../../lib/kube/types';
import { BUILT_IN_GROUPS, ServedArchiveObjects, ISTIO_VERSIONS } from './objects';
import { logSlice } from './pod-log';
import { archivePath, PROXY_LOG_FILE, splitProxyLog } from '../../lib/archive/layout';
import { envoyAdminAnswer, istiodDebugAnswer, type ArchivePortAnswer } from './proxy-files';
import { fieldSelectorTest, labelSelectorTest } from './selectors';
import { GATEWAY_API_GROUP as GATEWAY_API } from '../kube/resources';
import { archiveSummary, archiveListUnknown } from './unknown';

export interface ArchiveApiServer {
  url: string;
  index: ArchiveIndex;
  close(): Promise<void>;
}

function status(res: http.ServerResponse, code: number, reason: string, message: string): void {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(body);
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startArchiveApiServer(
  index: ArchiveIndex,
  opts: { port?: number; host?: string } = {},
): Promise<ArchiveApiServer> {
  const objects = new ServedArchiveObjects(index);
  const captured = index.capture.time?.getTime() ?? null;
  const proxies = new Map(index.proxies.map((p) => [JSON.stringify([p.namespace, p.pod]), p]));
  const istiods = new Map(index.istiods.map((d) => [JSON.stringify([d.namespace, d.pod]), d]));
  const caches = new Map<string, Map<string, unknown>>();
  const cacheOf = (k: string): Map<string, unknown> => {
    const c = caches.get(k) ?? new Map<string, unknown>();
    caches.set(k, c);
    return c;
  };
  const summary = archiveSummary(index);
  const watches = new Set<http.ServerResponse>();

  async function podPort(
    ns: string,
    pod: string,
    port: number,
    path: string,
    q: URLSearchParams,
  ): Promise<ArchivePortAnswer> {
    const key = JSON.stringify([ns, pod]);
    if (port === 15000) return envoyAdminAnswer(index, proxies.get(key), path, q, cacheOf(key));
    if (port === 15090 && path === '/stats/prometheus')
      return envoyAdminAnswer(index, proxies.get(key), path, q, cacheOf(key));
    if (port === 15014) return istiodDebugAnswer(index, istiods.get(key), path);
    return {
      status: 404,
      contentType: 'text/plain',
      body: Buffer.from(
        `port ${port} ${path} of ${pod} is not in the archive: istioctl bug-report keeps Envoy admin, Prometheus stats and istiod's debug endpoints only`,
      ),
    };
  }

  function findObject(
    list: KubeObject[],
    ns: string | undefined,
    name: string,
  ): KubeObject | undefined {
    return list.find(
      (o) => o.metadata.name === name && (ns === undefined || o.metadata.namespace === ns),
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://archive');
    // the archive is one instant: "now" stays its capture time, however long it is open (a
    // clock that ran on would age every pod and move every window away from what was captured)
    const now = captured ?? Date.now();
    res.setHeader('Date', new Date(now).toUTCString());
    if (req.method !== 'GET')
      return status(res, 405, 'MethodNotAllowed', `the archive ${index.name} is read-only`);
    const p = url.pathname.replace(/\/+$/, '') || '/';
    if (p === '/meshdx/archive') return json(res, summary);
    if (p === '/meshdx/archive/analyze') {
      const files = index.layout.analyze;
      if (files.length === 0)
        return status(res, 404, 'NotFound', `the archive ${index.name} has no analyze/ output`);
      const texts = await Promise.all(files.map((f) => index.read(f)));
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end(Buffer.concat(texts.flatMap((t) => [t, Buffer.from('\n')])));
    }
    if (p === '/version')
      return json(res, {
        gitVersion: 'unknown (istioctl bug-report archive)',
        platform: ARCHIVE_PLATFORM,
      });
    if (p === '/api') return json(res, { kind: 'APIVersions', versions: ['v1'] });
    if (p === '/apis') {
      const groups = new Map<string, Set<string>>();
      // a bug-report is of an Istio cluster: its API groups are served whether or not the
      // archive kept their objects (a list of them without cluster/crs answers why it cannot)
      for (const g of ['networking.istio.io', 'security.istio.io', 'telemetry.istio.io'])
        groups.set(g, new Set(ISTIO_VERSIONS));
      // and Kubernetes' own groups are served by every API server, whatever objects it has
      for (const [g, vs] of BUILT_IN_GROUPS) groups.set(g, new Set(vs));
      // Gateway API is installed where its CRDs are; an archive without CRDs cannot say, and
      // serves the group so that its lists answer that (archiveListUnknown), not "not installed"
      if (!objects.all().some((r) => r.plural === 'customresourcedefinitions'))
        groups.set(GATEWAY_API, new Set(['v1', 'v1beta1']));
      for (const r of objects.all())
        if (r.group) groups.set(r.group, new Set([...(groups.get(r.group) ?? []), ...r.versions]));
      return json(res, {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [...groups].map(([name, vs]) => ({
          name,
          versions: [...vs].map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
          preferredVersion: { groupVersion: `${name}/${[...vs][0]}`, version: [...vs][0] },
        })),
      });
    }
    const m =
      /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))(?:\/namespaces\/([^/]+))?\/([^/]+)(?:\/([^/]+))?(?:\/(log|proxy)(\/.*)?)?$/.exec(
        p,
      );
    if (!m) return status(res, 404, 'NotFound', `the archive ${index.name} serves no ${p}`);
    const [, coreV, group = '', groupV, ns, plural = '', rawName, sub, subPath = '/'] = m;
    const version = coreV ?? groupV ?? 'v1';
    if (plural === 'pods' && rawName && sub === 'log' && ns) {
      const proxy = proxies.get(JSON.stringify([ns, rawName]));
      const container = url.searchParams.get('container') ?? 'istio-proxy';
      if (!proxy?.files.log || container !== 'istio-proxy') {
        // why this proxy's log is not there, when the archive says (a window it logged nothing in)
        const why =
          container === 'istio-proxy'
            ? index.missing.find(
                (x) =>
                  x.part === archivePath('proxies', ns, rawName, PROXY_LOG_FILE) ||
                  x.part === `${archivePath('proxies', ns, rawName)}/`,
              )?.reason
            : undefined;
        return status(
          res,
          404,
          'NotFound',
          `the archive ${index.name} holds no ${container} log of ${rawName}: ${why ?? 'istioctl bug-report keeps the istio-proxy log of the proxies it gathers'}`,
        );
      }
      const parts = splitProxyLog((await index.read(proxy.files.log)).toString('utf8'));
      const which = url.searchParams.get('previous') === 'true' ? parts.previous : parts.current;
      if (which === null)
        return status(
          res,
          400,
          'BadRequest',
          `previous terminated container "istio-proxy" in pod "${rawName}" not found in the archive`,
        );
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return void res.end(logSlice(which, url.searchParams));
    }
    if (plural === 'pods' && rawName && sub === 'proxy' && ns) {
      const pm = /^(.+):(\d+)$/.exec(rawName);
      if (!pm) return status(res, 400, 'BadRequest', 'pods/proxy needs NAME:PORT');
      const a = await podPort(ns, pm[1] ?? '', Number(pm[2]), subPath, url.searchParams);
      res.writeHead(a.status, { 'Content-Type': a.contentType });
      return void res.end(a.body);
    }
    const watching =
      url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const r = objects.resource(group, version, plural);
    const why = archiveListUnknown(index, group, plural);
    if (!r && !(group === GATEWAY_API && why))
      return status(
        res,
        404,
        'NotFound',
        `the server could not find the requested resource (the archive ${index.name} holds no ${group ? `${group}/` : ''}${plural})`,
      );
    if (why || !r)
      return status(
        res,
        503,
        'ServiceUnavailable',
        `${plural} of the archive ${index.name}: ${why}`,
      );
    if (rawName) {
      const o = findObject(r.objects, r.namespaced ? ns : undefined, decodeURIComponent(rawName));
      return o ? json(res, o) : status(res, 404, 'NotFound', `${plural} "${rawName}" not found`);
    }
    if (watching) {
      // the archive never changes: a watch stays open, silent, until its timeout
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      watches.add(res);
      const secs = Number(url.searchParams.get('timeoutSeconds') ?? '300');
      const t = setTimeout(() => res.end(), Math.min(Math.max(1, secs), 3600) * 1000);
      t.unref();
      res.on('close', () => {
        clearTimeout(t);
        watches.delete(res);
      });
      return;
    }
    const labels = url.searchParams.get('labelSelector');
    const fields = url.searchParams.get('fieldSelector');
    const lt = labels ? labelSelectorTest(labels) : null;
    const ft = fields ? fieldSelectorTest(fields) : null;
    for (const t of [lt, ft]) if (t && 'error' in t) return status(res, 400, 'BadRequest', t.error);
    const items = r.objects.filter(
      (o) =>
        (!r.namespaced || ns === undefined || o.metadata.namespace === ns) &&
        (typeof lt !== 'function' || lt(o)) &&
        (typeof ft !== 'function' || ft(o)),
    );
    return json(res, {
      apiVersion: group ? `${group}/${version}` : 'v1',
      kind: 'List',
      metadata: { resourceVersion: '1' },
      items: items.map((o) =>
        group.endsWith('istio.io') ? { ...o, apiVersion: `${group}/${version}` } : o,
      ),
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        status(res, 500, 'InternalError', e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) =>
      ['v4.channel.k8s.io', 'channel.k8s.io'].find((p) => protocols.has(p)) ?? false,
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://archive');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/portforward$/.exec(url.pathname);
    const ports = url.searchParams
      .getAll('ports')
      .flatMap((x) => x.split(','))
      .map(Number);
    if (!m || ports.length !== 1 || !Number.isInteger(ports[0])) {
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nthe archive forwards one port of one pod\r\n',
      );
      return;
    }
    const [, ns = '', pod = ''] = m;
    const port = ports[0] ?? 0;
    wss.handleUpgrade(req, socket, head, (ws) =>
      serveForward(ws, port, (path, q) => podPort(ns, pod, port, path, q)),
    );
  });
  await new Promise<void>((resolve) =>
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve),
  );
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address}:${addr.port}`,
    index,
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of watches) w.end();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * One port forwarded over the websocket channel protocol (v4.channel.k8s.io): data on channel
 * 0, errors on 1, each opened by a frame with the port; the client's bytes on channel 0 are one
 * HTTP/1.1 GET, answered from the archive, after which the websocket closes.
 */
function serveForward(
  ws: WebSocket,
  port: number,
  answer: (path: string, q: URLSearchParams) => Promise<ArchivePortAnswer>,
): void {
  ws.send(Buffer.from([0, port & 0xff, (port >> 8) & 0xff]));
  ws.send(Buffer.from([1, port & 0xff, (port >> 8) & 0xff]));
  let got = Buffer.alloc(0);
  let answered = false;
  ws.on('error', () => ws.terminate());
  ws.on('message', (data: RawData) => {
    const b = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    if (b[0] !== 0 || answered) return;
    got = Buffer.concat([got, b.subarray(1)]);
    const end = got.indexOf('\r\n\r\n');
    if (end < 0) {
      if (got.length > 64 * 1024) ws.close(1009);
      return;
    }
    answered = true;
    const line = got.subarray(0, got.indexOf('\r\n')).toString('latin1');
    const rm = /^GET (\S+) HTTP\/1\.[01]$/.exec(line);
    const reply = async (): Promise<ArchivePortAnswer> => {
      if (!rm)
        return {
          status: 405,
          contentType: 'text/plain',
          body: Buffer.from('the archive answers GET only'),
        };
      const u = new URL(rm[1] ?? '/', 'http://pod');
      return answer(u.pathname, u.searchParams);
    };
    reply()
      .catch((e: unknown): ArchivePortAnswer => ({
        status: 500,
        contentType: 'text/plain',
        body: Buffer.from(e instanceof Error ? e.message : String(e)),
      }))
      .then((a) => {
        const head = `HTTP/1.1 ${a.status} ${http.STATUS_CODES[a.status] ?? ''}\r\nContent-Type: ${a.contentType}\r\nContent-Length: ${a.body.length}\r\nConnection: close\r\n\r\n`;
        if (ws.readyState === ws.OPEN)
          ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(head, 'latin1'), a.body]));
        ws.close(1000);
      });
  });
}
