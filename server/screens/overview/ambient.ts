/**
 * The Ambient readiness use case (a section of Overview): the cluster's objects in one parallel
 * fan-out, the kinds that may not be installed read best-effort (their absence is a note), and
 * meshdx's own figures: Timelines' verdicts and the last Proxies scan's cluster counts.
 */
import type { AmbientView } from '../../../lib/api/ambient';
import { buildAmbientView } from '../../../lib/ambient/view';
import type { AuthorizationPolicy, EnvoyFilter, PeerAuthentication } from '../../../lib/kube/types';
import {
  ISTIO_GROUP,
  listGateways,
  listIstioConfig,
  listNamespaces,
  listOptional,
  listServices,
} from '../../kube/resources';
import { lastReads, podListDetail, viewDeadline } from '../deadline';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import { cachedFleet } from '../proxies/fleet';
import { timelineFleetOf } from '../timelines/timelines';
import type { RequestScope } from '../../auth/identity';

const SECURITY_GROUP = 'security.istio.io';
const SECURITY_VERSIONS = ['v1', 'v1beta1'];
/** A Proxies scan this recent still tells the clusters each namespace's sidecars carry. */
const FLEET_MAX_AGE_MS = 10 * 60_000;

/** By the view's deadline (one for the whole section), or a 503 naming what is still read. */
export async function ambientOf(rt: ClusterRuntime): Promise<AmbientView> {
  const t = rt.transport;
  const d = viewDeadline(rt, 'Ambient readiness');
  const reads = lastReads(rt);
  rt.start();
  const [namespaces, , services, istio, gateways, authz, peer, filters, timelines] =
    await Promise.all([
      d.needOrLast('namespaces', reads, 'namespaces', listNamespaces(t)),
      d.need('pods', rt.pods.whenListed(), () => podListDetail(rt)),
      d.needOrLast('services', reads, 'services', listServices(t)),
      d.needOrLast('Istio config', reads, 'istio-config', listIstioConfig(t)),
      d.needOrLast('gateways', reads, 'gateways', listGateways(t)),
      d.needOrLast(
        'AuthorizationPolicies',
        reads,
        'authorizationpolicies',
        listOptional<AuthorizationPolicy>(
          t,
          SECURITY_GROUP,
          SECURITY_VERSIONS,
          'authorizationpolicies',
        ),
      ),
      d.needOrLast(
        'PeerAuthentications',
        reads,
        'peerauthentications',
        listOptional<PeerAuthentication>(
          t,
          SECURITY_GROUP,
          SECURITY_VERSIONS,
          'peerauthentications',
        ),
      ),
      d.needOrLast(
        'EnvoyFilters',
        reads,
        'envoyfilters',
        listOptional<EnvoyFilter>(t, ISTIO_GROUP, ['v1alpha3'], 'envoyfilters'),
      ),
      timelineFleetOf(rt, d),
    ]);
  const pods = { items: rt.cache.livePods() };
  const fleet = cachedFleet(rt, FLEET_MAX_AGE_MS);
  const notes = [gateways.note, authz.note, peer.note, filters.note].filter(
    (n): n is string => n !== null,
  );
  if (!fleet)
    notes.push('no recent Proxies scan: open Proxies to measure the clusters sidecars carry');
  const view = buildAmbientView({
    namespaces: namespaces.items,
    pods: pods.items,
    services: services.items,
    authorizationPolicies: authz.items,
    peerAuthentications: peer.items,
    envoyFilters: filters.items,
    virtualServices: istio.virtualServices,
    destinationRules: istio.destinationRules,
    sidecars: istio.sidecars,
    gateways: gateways.items,
    timelineRows: timelines.rows,
    proxies: fleet
      ? fleet.rows.map((r) => ({
          namespace: r.namespace,
          placement: r.placement,
          activeClusters: r.activeClusters,
        }))
      : null,
    istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
    notes,
    now: t.clusterNow(),
  });
  return d.late.length > 0 ? { ...view, late: [...d.late] } : view;
}

export function getAmbient(scope: RequestScope): Promise<AmbientView> {
  return ambientOf(runtimeFor(scope));
}
