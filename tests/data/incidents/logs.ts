/** Hand-made access-log lines for incidents tests (Istio 1.9+ default TEXT format; not a test file). */
export function logLine(
  at: number,
  code: number,
  flags: string,
  upstream: string,
  opts: { cluster?: string; client?: string } = {},
): string {
  const cluster = opts.cluster ?? 'outbound|8080||payments.shop.svc.cluster.local';
  const client = opts.client ?? '10.8.0.99';
  return `[${new Date(at).toISOString()}] "POST /pay HTTP/1.1" ${code} ${flags} via_upstream - "-" 0 95 3 - "-" "curl" "rid" "payments:8080" "${upstream}" ${cluster} ${client}:40000 10.96.0.10:8080 ${client}:39999 - default`;
}
