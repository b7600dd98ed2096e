import type { PodDetail } from '../../../lib/api/inventory';
import { podRow } from '../../../lib/inventory/build';
import { deletionOf, otherIncarnations, podIpSpans } from '../../../lib/inventory/pod-past';
import { requireName } from '../../../lib/kube/names';
import { podKey } from '../../../lib/refs/pod-ref';
import { isEventOfPod } from '../../../lib/timeline/events';
import { failuresHitting, podFailureWindow } from '../../../lib/incidents/pod-failures';
import { logAccess, logAccessScreen, visibleFailures } from '../incidents/failure-access';
import type { KubeEvent, Pod } from '../../../lib/kube/types';
import type { DeletedPodRecord } from '../../../lib/timeline/pod-history';
import { isKubeError, KubeError } from '../../kube/errors';
import { collectionPath, CORE, listEvents } from '../../kube/resources';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import type { RequestScope } from '../../auth/identity';
import { podTimelineFrom, runtimeSource } from '../timelines/timelines';
import { ownPodList, viewDeadline } from '../deadline';

/**
 * One pod with its labels, annotations, events and past: the deep link for a pod. A pod the
 * cluster no longer has is answered from the history store (marked gone, with its deletion);
 * a name meshdx never saw is a 404 that names it.
 */
export async function getPodDetail(
  scope: RequestScope,
  namespace: string,
  name: string,
  uid: string | null = null,
): Promise<PodDetail> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  const rt = runtimeFor(scope);
  const t = rt.transport;
  // asked beside the pod and its events; every answer below reads the history
  const history = historyReadable(rt, `Pod ${podKey(ns, pod)}`);
  history.catch(() => undefined);
  let obj: Pod;
  let events: KubeEvent[];
  try {
    [obj, events] = await Promise.all([
      t.getJson<Pod>(`${collectionPath(CORE.pods, ns)}/${pod}`),
      listEvents(t, { namespace: ns, fieldSelector: `involvedObject.name=${pod}` }).then(
        (l) => l.items.filter((e) => e.involvedObject.name === pod),
        () => [],
      ),
    ]);
  } catch (e) {
    if (!(isKubeError(e) && e.status === 404)) throw e;
    await history;
    return uid ? incarnationDetail(rt, ns, pod, uid, null) : storedPodDetail(rt, ns, pod);
  }
  await history;
  // a link to an earlier pod of the name: that pod, not the one that holds the name now
  if (uid && obj.metadata.uid !== uid) return incarnationDetail(rt, ns, pod, uid, obj);
  // filed by name: only this incarnation's (an earlier pod of the same name had its own uid)
  events = events.filter((e) => isEventOfPod(obj, e));
  return {
    ...detailOf(obj, events),
    gone: false,
    deletion: null,
    ips: podIpSpans(obj, rt.store),
    transitions: transitionsOf(rt, obj),
    failures: await failuresOf(rt, obj, null),
    ...(await drainOrderOf(rt, obj)),
    otherIncarnations: otherIncarnations(obj, rt.podHistory.deletedPods()),
  };
}

/**
 * The pod of the name with this uid, as the history store kept it (it is not the live one:
 * `live` holds the name now, or nothing does). A 404 naming the uid, and the pod of the name
 * now, when the store has no such pod.
 */
async function incarnationDetail(
  rt: ClusterRuntime,
  ns: string,
  name: string,
  uid: string,
  live: Pod | null,
): Promise<PodDetail> {
  const history = rt.podHistory;
  const found = history.findIncarnation(ns, name, uid);
  if (!found?.deleted) {
    const now = live?.metadata.uid ? `; the pod of that name now has uid ${live.metadata.uid}` : '';
    throw new KubeError(
      'http',
      `pod ${podKey(ns, name)} with uid ${uid}: meshdx's history has no deleted pod of that name with this uid${now}`,
      { status: 404, reason: 'NotFound' },
    );
  }
  return goneDetail(rt, found.pod, found.deleted, live);
}

/** A gone pod's page, from what the history store kept, with the live namesake when there is one. */
async function goneDetail(
  rt: ClusterRuntime,
  pod: Pod,
  deleted: DeletedPodRecord,
  live: Pod | null,
): Promise<PodDetail> {
  const history = rt.podHistory;
  return {
    ...detailOf(pod, history.eventsFor(pod)),
    gone: true,
    deletion: deletionOf(deleted),
    ips: podIpSpans(pod, rt.store),
    transitions: transitionsOf(rt, pod),
    failures: await failuresOf(rt, pod, Date.parse(deleted.deletedAt)),
    ...(await drainOrderOf(rt, pod)),
    otherIncarnations: otherIncarnations(pod, history.deletedPods(), live),
  };
}

/**
 * The recorded failing requests that reached the pod, over its life and the hour after: as the
 * requesting identity may see them (a user's runtime sees the records of the client proxies whose
 * logs its RBAC lets it read, as Incidents does).
 */
async function failuresOf(
  rt: ClusterRuntime,
  pod: Pod,
  goneAt: number | null,
): Promise<PodDetail['failures']> {
  const now = rt.now().getTime();
  const created = Date.parse(pod.metadata.creationTimestamp ?? '');
  const window = podFailureWindow(Number.isFinite(created) ? created : null, goneAt, now);
  try {
    const ref = {
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      uid: pod.metadata.uid ?? null,
    };
    const access = rt.ownsHistory ? null : logAccess(rt.transport, rt.screen(logAccessScreen));
    const visible = access
      ? await visibleFailures(rt.store.failures, window, access)
      : { store: rt.store.failures, hidden: [] };
    return {
      // the store reads the records of this pod alone (its pod indexes); failuresHitting counts
      // them by the same rule
      ...failuresHitting(ref, visible.store.inWindow({ ...window, pod: ref }), window),
      hiddenNamespaces: visible.hidden,
    };
  } catch {
    // the page still shows what it has; the section says the store could not be read
    return null;
  }
}

/**
 * A user's runtime shows meshdx's history once the user's own pod list has come in (the history
 * is gated on it: server/runtime/history-gate.ts), so the page waits for that list within the
 * view's deadline, as every view waits for its pods: a page opened as a user's first one, while
 * that list is still running, is the pod, not a refusal. A list the API server refused is left
 * to the gate, which names the refusal; any other failure is the page's error.
 */
async function historyReadable(rt: ClusterRuntime, view: string): Promise<void> {
  if (rt.ownsHistory) return;
  try {
    await ownPodList(rt, viewDeadline(rt, view));
  } catch (e) {
    if (!(isKubeError(e) && e.status === 403)) throw e;
  }
}

/**
 * The pod's drain order as the Timelines analysis of it gives it (one analysis, cached: the page
 * and Timelines show the same figures); why it is missing otherwise.
 */
async function drainOrderOf(
  rt: ClusterRuntime,
  pod: Pod,
): Promise<Pick<PodDetail, 'drainOrder' | 'drainOrderProblem'>> {
  try {
    const view = await podTimelineFrom(
      rt.cache,
      runtimeSource(rt),
      pod.metadata.namespace ?? 'default',
      pod.metadata.name,
      pod.metadata.uid ?? null,
    );
    return {
      drainOrder: view.drainOrder,
      drainOrderProblem:
        view.drainOrder === null ? (view.excluded ?? 'no proxy and not in the ambient mesh') : null,
    };
  } catch (e) {
    return {
      drainOrder: null,
      drainOrderProblem: `the pod's timeline could not be built: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** The pod as the history store holds it, once the cluster has none of that name. */
async function storedPodDetail(rt: ClusterRuntime, ns: string, name: string): Promise<PodDetail> {
  const history = rt.podHistory;
  const found = history.findPod(ns, name);
  if (!found)
    throw new KubeError(
      'http',
      `pod ${podKey(ns, name)} does not exist, and meshdx's history has no pod of that name`,
      { status: 404, reason: 'NotFound' },
    );
  if (!found.deleted)
    throw new KubeError(
      'http',
      `pod ${podKey(ns, name)} does not exist; meshdx saw it but has not recorded its deletion yet`,
      { status: 404, reason: 'NotFound' },
    );
  return goneDetail(rt, found.pod, found.deleted, null);
}

function transitionsOf(rt: ClusterRuntime, pod: Pod): PodDetail['transitions'] {
  return rt.podHistory
    .transitions(pod)
    .map((tr) => ({ time: tr.time, container: tr.container, field: tr.field, value: tr.value }))
    .sort((a, b) => a.time.localeCompare(b.time));
}

function detailOf(
  obj: Pod,
  events: KubeEvent[],
): Pick<PodDetail, 'pod' | 'labels' | 'annotations' | 'events'> {
  return {
    pod: podRow(obj),
    labels: obj.metadata.labels ?? {},
    annotations: obj.metadata.annotations ?? {},
    events: events
      .map((e) => ({
        type: e.type ?? 'Normal',
        reason: e.reason ?? '',
        message: e.message ?? '',
        count: e.count ?? 1,
        firstTime: e.firstTimestamp ?? e.eventTime ?? null,
        lastTime: e.lastTimestamp ?? e.eventTime ?? null,
        fieldPath: e.involvedObject.fieldPath ?? null,
      }))
      .sort((a, b) => (a.firstTime ?? '').localeCompare(b.firstTime ?? '')),
  };
}
