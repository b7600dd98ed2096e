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

export interface ParseError {
  line: number;
  /** 1-based column where the problem was noticed, when known. */
  column?: number;
  message: string;
  /** The offending line (truncated), to show it to a human. */
  text: string;
}

export interface PrometheusParseResult {
  samples: Sample[];
  families: Record<string, MetricFamily>;
  errors: ParseError[];
  /** Lines seen, and how each was accounted for (lines = samples + comments + blank + errors). */
  counts: { lines: number; samples: number; comments: number; blank: number; errors: number };
}
