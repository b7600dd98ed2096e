/**
 * The Incidents live follow on the wire (GET /api/incidents/live, server-sent events): each
 * `batch` event's data is a LiveBatch, a `failure` event's a LiveFailure. The server sends
 * these types (server/screens/incidents/live.ts) and the browser parses them with these
 * schemas (components/incidents/api.ts).
 */
import { z } from 'zod';
import { MarkerSchema, RequestRowSchema } from './incidents';

/** Counts of one follow's lines: read, access-log records, failing, skipped, unreadable. */
export const LiveStatsSchema = z.object({
  lines: z.number(),
  records: z.number(),
  failing: z.number(),
  skipped: z.number(),
  errors: z.number(),
});

/** A client whose log could not be followed: `gone` when its pod no longer exists. */
export const LiveProblemSchema = z.object({
  source: z.string(),
  problem: z.string(),
  gone: z.boolean(),
});
export type LiveProblem = z.infer<typeof LiveProblemSchema>;

export const LiveBatchSchema = z.object({
  rows: z.array(RequestRowSchema),
  stats: LiveStatsSchema,
  /** Deletions and removals of the pods the failures went to, since the session began. */
  markers: z.array(MarkerSchema),
  /** Clients whose log could not be followed, with why. */
  problems: z.array(LiveProblemSchema),
  clients: z.array(z.string()),
});
export type LiveBatch = z.infer<typeof LiveBatchSchema>;

/** Why the follow stopped (the `failure` event). */
export const LiveFailureSchema = z.object({ message: z.string() });
export type LiveFailure = z.infer<typeof LiveFailureSchema>;
