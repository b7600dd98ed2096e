import type { StreamProblem } from '../json-stream';
import type { ParseProblem } from '../parse-problem';

/** Why a part of a timeline input (pods, events, watch streams) or a mesh config was not read. */
export type TimelineInputReason =
  | StreamProblem['reason']
  | 'empty'
  | 'invalid-json'
  | 'invalid-yaml'
  | 'not-an-object'
  | 'not-a-pod'
  | 'not-an-event'
  | 'api-status'
  | 'watch-error'
  | 'unknown-event-type'
  | 'no-mesh-config';

/** Errors as data: where in the input text (1-based line and column), why, and what. */
export interface TimelineInputProblem extends ParseProblem {
  column: number;
  reason: TimelineInputReason;
}
