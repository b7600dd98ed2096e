import type { ParseProblem } from '../parse-problem';

/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  /** Float value; +Inf/-Inf/NaN are JS Infinity/-Infinity/NaN. */
  value: number;
  /** Milliseconds since epoch when the line carries a timestamp. */
  timestampMs?: number;
  /** Name of the family (TYPE line) this sample belongs to, when known. */
  family?: string;
  /** 1-based line number in the input. */
  line: number;
}

export type MetricType =
  | 'counter'
  | 'gauge'
  | 'histogram'
  | 'summary'
  | 'untyped'
  | 'gaugehistogram'
  | 'info'
  | 'stateset'
  | 'unknown';

export interface MetricFamily {
  name: string;
  type: MetricType;
  help?: string;
}

/** Why a line of metrics text (Prometheus exposition, Envoy /stats) could not be read. */
export type MetricsProblemReason =
  /** A `# TYPE` / `# HELP` line that says something meshdx cannot use. */
  | 'bad-comment'
  /** A Prometheus sample line that is not `name{labels} value [timestamp]`. */
  | 'bad-sample'
  /** An Envoy /stats line that is not `name: value`. */
  | 'bad-stat';

/** A line of metrics text that could not be read, with the line itself (truncated). */
export interface MetricsProblem extends ParseProblem {
  reason: MetricsProblemReason;
  excerpt: string;
}

export interface PrometheusParseResult {
  samples: Sample[];
  families: Record<string, MetricFamily>;
  errors: MetricsProblem[];
  /** Lines seen, and how each was accounted for (lines = samples + comments + blank + errors). */
  counts: { lines: number; samples: number; comments: number; blank: number; errors: number };
}
