import http from 'node:http';

/**
 * Forwards one request to the API server at `to` as it came (method, path, headers, body) and
 * streams its answer back: the pass-through of a test's API server in front of the simulator,
 * which answers some requests itself or holds them. `onEnd` runs when the answer is sent.
 */
export function forwardRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  to: URL,
  onEnd: () => void = () => undefined,
): void {
  const up = http.request(
    { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', onEnd);
    },
  );
  req.pipe(up);
}
