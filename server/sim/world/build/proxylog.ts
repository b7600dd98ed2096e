import { proxyLogTime } from './time';

/** istio-proxy's own log lines (not access logs), as `kubectl logs -c istio-proxy` shows them. */
export function proxyLine(ms: number, level: 'info' | 'warning' | 'error', text: string): string {
  return `${proxyLogTime(ms)}\t${level}\t${text}`;
}

/** Lines a sidecar writes between start and ready: version, xDS trouble until istiod answers, ready. */
export function proxyStartLines(
  startMs: number,
  readyMs: number,
  ip: string,
  podId: string,
): { at: number; line: string }[] {
  const out = [
    {
      at: startMs + 5,
      line: proxyLine(
        startMs + 5,
        'info',
        'Version 1.24.2-4ae7c8a0e0ec1a9e5d8a5e5b0a6f8f0e6e2c1b3a-Clean',
      ),
    },
    { at: startMs + 7, line: proxyLine(startMs + 7, 'info', `Obtained private IP [${ip}]`) },
    {
      at: startMs + 9,
      line: proxyLine(
        startMs + 9,
        'info',
        `Proxy role\tips=[${ip}] type=sidecar id=${podId} domain=${podId.split('.')[1] ?? ''}.svc.cluster.local`,
      ),
    },
    { at: startMs + 40, line: proxyLine(startMs + 40, 'info', 'Starting proxy agent') },
    { at: startMs + 60, line: proxyLine(startMs + 60, 'info', 'Opening status port 15020') },
  ];
  if (readyMs - startMs > 1500) {
    const t = startMs + 700;
    out.push({
      at: t,
      line: proxyLine(
        t,
        'warning',
        'envoy config\tStreamAggregatedResources gRPC config stream to xds-grpc closed since 0s ago: 14, no healthy upstream',
      ),
    });
  }
  out.push({ at: readyMs, line: proxyLine(readyMs, 'info', 'Envoy proxy is ready') });
  return out;
}
