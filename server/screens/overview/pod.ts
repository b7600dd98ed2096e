import type { PodDetail } from '../../../lib/api/inventory';
import { podRow } from '../../../lib/inventory/build';
import { requireName } from '../../../lib/kube/names';
import type { Pod } from '../../../lib/kube/types';
import { collectionPath, CORE, listEvents } from '../../kube/resources';
import { runtimeFor } from '../../runtime/registry';
import type { RequestScope } from '../../auth/identity';

/** One pod with its labels, annotations and events: the deep link for a pod. */
export async function getPodDetail(
  scope: RequestScope,
  namespace: string,
  name: string,
): Promise<PodDetail> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  const t = runtimeFor(scope).transport;
  const [obj, events] = await Promise.all([
    t.getJson<Pod>(`${collectionPath(CORE.pods, ns)}/${pod}`),
    listEvents(t, { namespace: ns, fieldSelector: `involvedObject.name=${pod}` }).catch(() => ({
      items: [],
      resourceVersion: '',
    })),
  ]);
  return {
    pod: podRow(obj),
    labels: obj.metadata.labels ?? {},
    annotations: obj.metadata.annotations ?? {},
    events: events.items
      .filter((e) => e.involvedObject.name === pod)
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
