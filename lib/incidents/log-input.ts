/**
 * An access log as the Incidents analysis reads it, and an unreadable line of one: what the
 * readers of logs (collect.ts, read-failures.ts) and the line reader (log-lines.ts) share.
 */
import type { AccessLogProblem } from '../accesslog/types';

/** One access log to read: a client pod's istio-proxy log, or an uploaded text. */
export interface LogInput {
  /** "namespace/pod" of the proxy that wrote it, or a label such as "upload". */
  source: string;
  /** The client pod when the log is a pod's own proxy log (its outbound requests). */
  clientPod: string | null;
  text: string;
  /** Set when the log could not be fetched: counted as a source with a problem. */
  problem?: string | null;
}

/** An unreadable line of one of the logs read, and which log it is in. */
export interface IncidentLineProblem extends AccessLogProblem {
  source: string;
}
