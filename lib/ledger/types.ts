/** What meshdx keeps of one pod for IP history: read from a Pod object (see observation.ts). */
export interface PodObservation {
  namespace: string;
  name: string;
  uid: string | null;
  ips: string[];
  /** hostNetwork pods carry the node's IP: they never own a pod IP and are not recorded. */
  hostNetwork: boolean;
  node: string | null;
  owner: { kind: string; name: string } | null;
  creationTimestamp: number | null;
  startTime: number | null;
  /** Earliest condition lastTransitionTime. */
  firstConditionTime: number | null;
  /** Latest timestamp anywhere in the status (conditions, container states), not deletion. */
  latestTime: number | null;
  /**
   * When the last of its containers exited, if the object shows every container terminated
   * (the final state a DELETED event carries): from then on nothing answers on its IP.
   */
  exitedAt: number | null;
  deletionTimestamp: number | null;
  deletionGracePeriodSeconds: number | null;
  terminationGracePeriodSeconds: number | null;
}

export type PodEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'LISTED';

/** One observation of a pod; `time` is when it was observed, null when the capture has no times. */
export interface PodEvent {
  type: PodEventType;
  pod: PodObservation;
  time: number | null;
}

/** How the start of an interval was found. Everything but 'event' is an estimate (lower bound). */
export type FromSource = 'event' | 'startTime' | 'condition' | 'creationTimestamp';

/** The span during which one pod held one IP. Times are epoch milliseconds. */
export interface PodInterval {
  ip: string;
  namespace: string;
  name: string;
  uid: string | null;
  owner: { kind: string; name: string } | null;
  node: string | null;
  from: number;
  fromSource: FromSource;
  /** deletionTimestamp minus the grace period: when the delete was requested. */
  deletionStartedAt: number | null;
  /** deletionTimestamp as written: the end of the grace period. */
  graceEndsAt: number | null;
  /** When the pod left the API (DELETED). */
  goneAt: number | null;
  /**
   * goneAt is an estimate (DELETED seen without a time and without every container's exit,
   * from the last known time). A DELETED without a time whose containers had all exited is
   * dated by the last exit, which is certain: nothing served on the IP after it.
   */
  goneUncertain: boolean;
  lastSeenAt: number | null;
}

export type HolderState = 'live' | 'terminating' | 'terminated' | 'unknown';

export interface IpLookup {
  ip: string;
  time: number;
  holder: PodInterval | null;
  state: HolderState;
  /** Request time minus deletion start (or minus goneAt when the start is unknown). */
  afterTerminationMs: number | null;
  reason: string;
}
