import { z } from 'zod';

/** What meshdx itself asked of one API server (its request budget's counts), for view footers. */
export const ApiBudgetSchema = z.object({
  qps: z.number(),
  burst: z.number(),
  proxyConcurrency: z.number(),
  requests: z.object({
    list: z.number(),
    get: z.number(),
    watch: z.number(),
    proxy: z.number(),
    portforward: z.number(),
    log: z.number(),
    other: z.number(),
  }),
  throttledWaits: z.number(),
  throttledMs: z.number(),
  slotWaits: z.number(),
  tooManyRequests: z.number(),
  retryAfterMs: z.number(),
  retries: z.number(),
  inFlightProxy: z.number(),
  peakInFlightProxy: z.number(),
  recentQps: z.number(),
  peakQps: z.number(),
  since: z.string(),
});
export type ApiBudget = z.infer<typeof ApiBudgetSchema>;
export type RequestKind = keyof ApiBudget['requests'];
