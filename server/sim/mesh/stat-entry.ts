/**
 * One Envoy stat as the simulated proxy reports it (/stats, /stats/prometheus): the shape every
 * stat source writes (stats.ts, istio-requests.ts, prometheus.ts) and the encoders read.
 */

export interface StatEntry {
  name: string;
  value: number;
  kind: 'counter' | 'gauge';
  /** Prometheus name and tags when they differ from the flat-name conversion. */
  prom?: { name: string; tags: Record<string, string> };
}

export interface HistogramStat {
  name: string;
  values: number[];
}
