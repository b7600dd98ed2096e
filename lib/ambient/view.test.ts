import { describe, expect, it } from 'vitest';
import type { TimelineFleetRow } from '../api/timelines';
import type { Namespace, Pod } from '../kube/types';
import { buildAmbientView, type AmbientInput } from './view';

const pod = (ns: string, name: string, sidecar: boolean): Pod => ({
  metadata: { namespace: ns, name },
  spec: {
    containers: [
      { name: 'app' },
      ...(sidecar ? [{ name: 'istio-proxy', args: ['proxy', 'sidecar'] }] : []),
    ],
  },
});
const row = (ns: string, workload: string, verdicts: string[]): TimelineFleetRow =>
  ({
    namespace: ns,
    workload,
    workloadKind: 'Deployment',
    verdicts,
    deleted: false,
  }) as unknown as TimelineFleetRow;

const input = (over: Partial<AmbientInput>): AmbientInput => ({
  namespaces: [],
  pods: [],
  services: [],
  authorizationPolicies: [],
  peerAuthentications: [],
  envoyFilters: [],
  virtualServices: [],
  destinationRules: [],
  sidecars: [],
  gateways: [],
  timelineRows: [],
  proxies: null,
  istioNamespace: 'istio-system',
  notes: [],
  now: new Date(0),
  ...over,
});

describe('ambient readiness view', () => {
  it("takes the gains from meshdx's own figures for the namespace", () => {
    const ns: Namespace[] = [
      { metadata: { name: 'shop' } },
      { metadata: { name: 'lab', labels: { 'istio.io/dataplane-mode': 'ambient' } } },
    ];
    const v = buildAmbientView(
      input({
        namespaces: ns,
        pods: [
          pod('shop', 'a', true),
          pod('shop', 'b', true),
          pod('lab', 'c', false),
          pod('istio-system', 'istiod', false),
        ],
        timelineRows: [
          row('shop', 'a', ['race']),
          row('shop', 'b', ['drain-too-short']),
          row('lab', 'c', ['race']),
        ],
        proxies: [
          { namespace: 'shop', placement: 'sidecar', activeClusters: 120 },
          { namespace: 'shop', placement: 'sidecar', activeClusters: null },
          { namespace: 'shop', placement: 'gateway', activeClusters: 40 },
        ],
      }),
    );
    expect(v.namespaces.map((n) => [n.namespace, n.status])).toEqual([
      ['shop', 'ready'],
      ['lab', 'migrated'],
    ]);
    expect(v.namespaces[0]?.gains).toEqual({
      raceWorkloads: ['Deployment/a'],
      drainWorkloads: ['Deployment/b'],
      sidecarProxies: 2,
      clustersCarried: 120,
      clustersMeasured: 1,
    });
    expect(v.namespaces[1]?.pods).toEqual({ sidecar: 0, ambient: 1, none: 0 });
  });
});
