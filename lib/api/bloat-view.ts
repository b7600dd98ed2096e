import { z } from 'zod';
import { ImplausibleSchema } from './measured';

/** One step of a cluster-count line: per-proxy average and largest, and how many reported. */
const PointSchema = z.object({
  t: z.number(),
  proxies: z.number(),
  avg: z.number().nullable(),
  max: z.number().nullable(),
});

const LineSchema = z.object({ name: z.string(), pods: z.number(), points: z.array(PointSchema) });
export type BloatLineView = z.infer<typeof LineSchema>;

const MarkerSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  /** epoch ms on Prometheus's clock (the cluster's time shifted by meshdx's clock offset). */
  at: z.number(),
  from: z.enum(['managedFields', 'creationTimestamp']),
  selector: z.record(z.string(), z.string()).nullable(),
});

/** Clusters per proxy as Scoping computes them now: under the scope in force, and proposed. */
const PredictionSchema = z.object({
  /** Modelled under the Sidecar resources in force now (what the applied one should give). */
  modelled: z.number().nullable(),
  /** With Scoping's proposed Sidecar. */
  proposed: z.number().nullable(),
  error: z.string().nullable(),
});

export const BloatViewSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('needs-prometheus'),
    message: z.string(),
    fix: z.string(),
  }),
  z.object({
    state: z.literal('error'),
    prometheus: z.string(),
    query: z.string(),
    message: z.string(),
  }),
  z.object({
    state: z.literal('ok'),
    prometheus: z.string(),
    namespace: z.string(),
    workload: z.string().nullable(),
    from: z.string(),
    to: z.string(),
    stepSeconds: z.number(),
    query: z.string(),
    line: LineSchema,
    workloads: z.array(z.object({ name: z.string(), pods: z.number() })),
    markers: z.array(MarkerSchema),
    prediction: PredictionSchema,
    /** Pods with series that the pod inventory does not know (counted in the namespace line only). */
    unattributedPods: z.number(),
    /** Gateway and waypoint pods of the namespace: not in the namespace line (no Sidecar scopes them). */
    unscopablePods: z.number(),
    /** Samples no cluster count can be (negative, fractional, beyond bounds): left out of the lines. */
    implausibleSamples: z.object({ count: z.number(), examples: z.array(ImplausibleSchema) }),
  }),
]);
export type BloatView = z.infer<typeof BloatViewSchema>;
