import { z } from 'zod';
import { LatePartsSchema } from './late';
import { DrainOrderSchema } from './timelines';

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
  /** sidecar (own Envoy), ambient (ztunnel captures it), none; why, and its waypoint. */
  dataplane: z.object({
    mode: z.enum(['sidecar', 'ambient', 'none']),
    why: z.string(),
    waypoint: z.string().nullable(),
  }),
});
export type PodRow = z.infer<typeof PodRowSchema>;

export const NamespaceRowSchema = z.object({
  name: z.string(),
  injection: z.enum(['enabled', 'disabled', 'revision', 'unset']),
  revision: z.string().nullable(),
  pods: z.number(),
  meshedPods: z.number(),
  /**
   * Meshed pods whose proxy a Sidecar resource can scope (classic and native sidecars; not
   * gateways or waypoints).
   */
  sidecarPods: z.number(),
  services: z.number(),
  sidecars: z.number(),
  defaultSidecar: z.boolean(),
  /** istio.io/dataplane-mode of the namespace. */
  dataplane: z.enum(['ambient', 'none']),
  ambientPods: z.number(),
  /** The namespace's istio.io/use-waypoint, as namespace/name. */
  waypoint: z.string().nullable(),
});
export type NamespaceRow = z.infer<typeof NamespaceRowSchema>;

export const InventorySchema = z.object({
  generatedAt: z.string(),
  namespace: z.string().nullable(),
  /**
   * Istio's root namespace (MESHDX_ISTIO_NAMESPACE): a Sidecar without selector there is the
   * default of every namespace that has none of its own.
   */
  rootNamespace: z.string(),
  namespaces: z.array(NamespaceRowSchema),
  totals: z.object({
    namespaces: z.number(),
    pods: z.number(),
    meshedPods: z.number(),
    services: z.number(),
    sidecars: z.number(),
    destinationRules: z.number(),
    virtualServices: z.number(),
    serviceEntries: z.number(),
    ambientNamespaces: z.number(),
    ambientPods: z.number(),
    ztunnels: z.number(),
    waypoints: z.number(),
  }),
  ambient: z.object({
    /** The ztunnel DaemonSet's pods (app=ztunnel in istio-system), one per node. */
    ztunnels: z.array(
      z.object({
        name: z.string(),
        node: z.string().nullable(),
        ready: z.boolean(),
        podIP: z.string().nullable(),
        /** Ambient pods on its node (those it captures). */
        ambientPods: z.number(),
      }),
    ),
    /** Waypoints: Gateways of class istio-waypoint and the pods that serve them. */
    waypoints: z.array(
      z.object({
        namespace: z.string(),
        name: z.string(),
        /** Whether a Gateway object was seen (the Gateway API may not be served). */
        gateway: z.boolean(),
        pods: z.number(),
        readyPods: z.number(),
        /** Pods whose namespace or own label names this waypoint. */
        usedBy: z.number(),
      }),
    ),
    /** Why the Gateways could not be read (404: the Gateway API is not installed), or null. */
    gatewaysNote: z.string().nullable(),
  }),
  /** What was not all in when this was answered (the pods, while a first list still runs). */
  late: LatePartsSchema,
});
export type Inventory = z.infer<typeof InventorySchema>;

/**
 * The pods a screen asked for (`GET /api/pods`): filtered on the server, at most `limit` rows,
 * with how many matched, so a screen never receives every pod of a 50,000-pod cluster.
 */
export const PodListSchema = z.object({
  generatedAt: z.string(),
  /** Pods that matched the filters (all of them, not only the rows sent). */
  total: z.number(),
  /** True when `total` is more than the rows sent. */
  truncated: z.boolean(),
  pods: z.array(PodRowSchema),
  /** What was not all in when this was answered (the pods, while a first list still runs). */
  late: LatePartsSchema,
});
export type PodList = z.infer<typeof PodListSchema>;

export const PodEventSchema = z.object({
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  count: z.number(),
  firstTime: z.string().nullable(),
  lastTime: z.string().nullable(),
  fieldPath: z.string().nullable(),
});

export const PodDeletionSchema = z.object({
  /** When meshdx saw the pod go; when not observed, an upper bound. */
  at: z.string(),
  /** False when the pod vanished while meshdx was not watching (the time is inferred). */
  observed: z.boolean(),
});

/** The recorded failing requests that reached a pod (it held the upstream IP when each was sent). */
export const PodFailuresSchema = z.object({
  count: z.number(),
  /** By the pod's state when each was sent (running, terminating, gone, ...). */
  byState: z.record(z.string(), z.number()),
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
  /** Client proxies (`ns/name`) that sent them, the first 20; `clientsTotal` counts all. */
  clients: z.array(z.string()),
  clientsTotal: z.number(),
  /** The span the store was asked about: the pod's life and the hour after it. */
  window: z.object({ from: z.string(), to: z.string() }),
  /** Client namespaces whose records are not shown (the user may not read their logs); `*`: records of no namespace. */
  hiddenNamespaces: z.array(z.string()),
});
export type PodFailures = z.infer<typeof PodFailuresSchema>;

export const PodDetailSchema = z.object({
  pod: PodRowSchema,
  annotations: z.record(z.string(), z.string()),
  labels: z.record(z.string(), z.string()),
  /** The cluster's events for a live pod; the recorded ones for a gone pod. */
  events: z.array(PodEventSchema),
  /** The pod no longer exists: everything here is what the history store kept of it. */
  gone: z.boolean(),
  deletion: PodDeletionSchema.nullable(),
  /** The spans during which it held its IPs (the IP history). */
  ips: z.array(
    z.object({
      ip: z.string(),
      from: z.string(),
      fromSource: z.enum(['event', 'startTime', 'condition', 'creationTimestamp']),
      deletionStartedAt: z.string().nullable(),
      goneAt: z.string().nullable(),
      goneUncertain: z.boolean(),
    }),
  ),
  /** Its recorded container and condition changes, oldest first. */
  transitions: z.array(
    z.object({
      time: z.string(),
      container: z.string(),
      field: z.string(),
      value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
    }),
  ),
  /** Failing requests the history store recorded against this pod; null when it could not be read. */
  failures: PodFailuresSchema.nullable(),
  /**
   * The order of its shutdown at deletion, as Timelines analysed the pod (the same figures);
   * null with `drainOrderProblem` saying why (outside the mesh, a gateway, not analysed).
   */
  drainOrder: DrainOrderSchema.nullable().optional(),
  drainOrderProblem: z.string().nullable().optional(),
  /** The other pods of this namespace and name: the live one (deletion null), then deleted ones. */
  otherIncarnations: z.array(
    z.object({
      uid: z.string().nullable(),
      createdAt: z.string().nullable(),
      deletion: PodDeletionSchema.nullable(),
    }),
  ),
});
export type PodDetail = z.infer<typeof PodDetailSchema>;
