import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pod } from '../../../lib/kube/types';
import { faultKey } from '../store/faults';
import { sleep, type SimContext } from './context';
import { askMesh, podNotReachable, refusedDial, resolvePort, splitProxyName } from './podport';
import { badRequest, failure, notFound, sendStatus } from './status';

const unavailable = (message: string) => failure(503, 'ServiceUnavailable', message);

/**
 * GET pods/NAME[:PORT]/proxy/PATH?QUERY: what the pod answers on that port (the mesh emulator),
 * with the API server's errors when the pod or port cannot be reached.
 */
export async function handlePodProxy(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
  namespace: string,
  rawName: string,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendStatus(
      res,
      failure(
        405,
        'MethodNotAllowed',
        `the simulator serves only GET on pods/proxy, not ${req.method ?? ''}`,
      ),
    );
  }
  const { name, port: portText } = splitProxyName(rawName);
  const pod = ctx.store.get<Pod>('pods', namespace, name);
  if (pod === undefined) return sendStatus(res, notFound('pods', name));
  const port = resolvePort(pod, portText);
  if (port === undefined) {
    return sendStatus(res, badRequest(`no such port "${portText ?? ''}" on pod ${name}`));
  }
  const why = podNotReachable(pod);
  if (why !== undefined)
    return sendStatus(res, unavailable(`error trying to reach service: ${why}`));
  const ip = pod.status?.podIP ?? '';
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  if (ctx.faults.unreachablePods.has(faultKey(pod))) {
    await sleep(ctx.options.dialTimeoutMs);
    if (gone) return;
    return sendStatus(
      res,
      unavailable(`error trying to reach service: dial tcp ${ip}:${port}: i/o timeout`),
    );
  }
  if (ctx.options.loopbackPorts.includes(port)) {
    return sendStatus(
      res,
      unavailable(
        `error trying to reach service: dial tcp ${ip}:${port}: connect: connection refused`,
      ),
    );
  }
  const slow = ctx.faults.slowPods.get(faultKey(pod)) ?? 0;
  if (slow > 0) await sleep(slow);
  if (gone) return;
  const answer = askMesh(ctx, pod, port, path, query);
  const refused = refusedDial(answer);
  if (refused !== undefined) return sendStatus(res, unavailable(refused));
  res.writeHead(answer.status, {
    'Content-Type': answer.contentType,
    'Content-Length': Buffer.byteLength(answer.body),
  });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}
