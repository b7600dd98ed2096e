/**
 * The text side of asking client proxies for their own failure counts (client-signals in the
 * Incidents screen): the one Prometheus query, and the lines of a proxy's scrape worth parsing.
 */

/** The one query: failing source-side requests per pod over the window. */
export function failuresQuery(windowSeconds: number): string {
  const w = `${Math.max(60, Math.round(windowSeconds))}s`;
  const sel = (m: string) => `sum by (namespace, pod) (increase(istio_requests_total{${m}}[${w}]))`;
  return `${sel('reporter="source",response_code=~"5.."')} or ${sel('reporter="source",response_flags!="-"')}`;
}

/** Only the istio_requests_total lines of a scrape (a scrape has thousands of lines). */
export function istioRequestLines(text: string): string {
  return text
    .split('\n')
    .filter(
      (l) => l.startsWith('istio_requests_total') || l.startsWith('# TYPE istio_requests_total'),
    )
    .join('\n');
}
