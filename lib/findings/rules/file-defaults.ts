/**
 * What istioctl adds to the files it analyzes without a cluster (pkg/config/analysis/local):
 * a stand-in for the default ingress gateway, a pod labelled istio=ingressgateway in the
 * istio namespace whose Service serves 80, 443, 31400 and 15443, unless the mesh config turns
 * the ingress controller off. Gateways that select `istio: ingressgateway` are judged against
 * it, as istioctl judges them. A cluster's own objects (a live cluster, an archive) have their
 * real gateway pods: nothing is assumed there (RuleContext.input).
 */
import type { RuleContext } from './rule';
import { str, stringMap } from './raw';

/** A pod as the gateway checks match it: where it is and its labels. */
export interface GatewayPodLabels {
  namespace: string;
  name: string;
  labels: Record<string, string>;
}

/** Istioctl's default ingress gateway: its pod and the ports of its Service. */
export interface AssumedIngress {
  pod: GatewayPodLabels;
  ports: readonly number[];
}

/** The default ingress gateway istioctl adds to files; null for a cluster's objects. */
export function assumedIngress(ctx: RuleContext): AssumedIngress | null {
  if (ctx.input !== 'files') return null;
  const mesh = ctx.meshConfig;
  if (str(mesh?.ingressControllerMode)?.toUpperCase() === 'OFF') return null;
  const service = str(mesh?.ingressService) ?? 'istio-ingressgateway';
  return {
    pod: {
      namespace: ctx.rootNamespace,
      name: `${service}-dummypod`,
      labels: { istio: 'ingressgateway' },
    },
    ports: [80, 443, 31400, 15443],
  };
}

/** The pods gateway selectors are matched against: the inputs' and the assumed ingress's. */
export function gatewayPods(
  ctx: RuleContext,
  assumed: AssumedIngress | null,
): readonly GatewayPodLabels[] {
  // several rules match gateways against every pod: the pods' labels are read once per report
  const pods = ctx.derived ? ctx.derived(podLabels) : podLabels(ctx);
  return assumed === null ? pods : [...pods, assumed.pod];
}

function podLabels(ctx: RuleContext): readonly GatewayPodLabels[] {
  return ctx.objects('Pod').map((p) => ({
    namespace: p.metadata.namespace ?? 'default',
    name: p.metadata.name,
    labels: stringMap(p.metadata.labels),
  }));
}
