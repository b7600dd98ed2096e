import { z } from 'zod';

/** Where the Istio proxy of a pod lives: none, a classic sidecar, or a native (init) sidecar. */
export const ProxyPlacementSchema = z.enum([
  'none',
  'sidecar',
  'native-sidecar',
  'gateway',
  'waypoint',
]);

export const ContainerRowSchema = z.object({
  name: z.string(),
  init: z.boolean(),
  ready: z.boolean(),
  restarts: z.number(),
  state: z.enum(['running', 'waiting', 'terminated', 'unknown']),
  startedAt: z.string().nullable(),
  reason: z.string().nullable(),
});

export const PodRowSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  uid: z.string(),
  phase: z.string(),
  ready: z.boolean(),
  deleting: z.boolean(),
  podIP: z.string().nullable(),
  node: z.string().nullable(),
  workload: z.string(),
  workloadKind: z.string(),
  createdAt: z.string().nullable(),
  proxy: z.object({
    placement: ProxyPlacementSchema,
    ready: z.boolean(),
    restarts: z.number(),
    image: z.string().nullable(),
  }),
  containers: z.array(ContainerRowSchema),
});
export type PodRow = z.infer<typeof PodRowSchema>;

export const NamespaceRowSchema = z.object({
  name: z.string(),
  injection: z.enum(['enabled', 'disabled', 'revision', 'unset']),
  revision: z.string().nullable(),
  pods: z.number(),
  meshedPods: z.number(),
  services: z.number(),
  sidecars: z.number(),
  defaultSidecar: z.boolean(),
});
export type NamespaceRow = z.infer<typeof NamespaceRowSchema>;

export const InventorySchema = z.object({
  generatedAt: z.string(),
  namespace: z.string().nullable(),
  namespaces: z.array(NamespaceRowSchema),
  pods: z.array(PodRowSchema),
  totals: z.object({
    namespaces: z.number(),
    pods: z.number(),
    meshedPods: z.number(),
    services: z.number(),
    sidecars: z.number(),
    destinationRules: z.number(),
    virtualServices: z.number(),
    serviceEntries: z.number(),
  }),
});
export type Inventory = z.infer<typeof InventorySchema>;

export const PodEventSchema = z.object({
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  count: z.number(),
  firstTime: z.string().nullable(),
  lastTime: z.string().nullable(),
  fieldPath: z.string().nullable(),
});

export const PodDetailSchema = z.object({
  pod: PodRowSchema,
  annotations: z.record(z.string(), z.string()),
  labels: z.record(z.string(), z.string()),
  events: z.array(PodEventSchema),
});
export type PodDetail = z.infer<typeof PodDetailSchema>;
