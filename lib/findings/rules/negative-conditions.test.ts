import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const negative = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === 'IST0171');
const found = (objects: unknown[]) =>
  negative(objects)
    .map((f) => `${f.subject.kind} ${f.subject.name}: ${String(f.evidence.conditionType)}`)
    .sort();
const cond = (type: string, status: unknown, reason = 'R', message = 'm') => ({
  type,
  status,
  reason,
  message,
});
const withStatus = (apiVersion: string, kind: string, name: string, status: unknown) => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'default' },
  status,
});
const GW_API = 'gateway.networking.k8s.io/v1';

describe('IST0171 NegativeConditionStatus (conditions.ConditionAnalyzer)', () => {
  it("reports istioctl's grid file as istioctl does, and not Argo CD's condition", () => {
    expect(found(grid('condition-analyzer.yaml'))).toEqual([
      'AuthorizationPolicy negative-condition-authz-partially-invalid: WaypointAccepted',
      'AuthorizationPolicy negative-condition-authz: ZtunnelAccepted',
      'GRPCRoute negative-condition-grpcroute: Accepted',
      'Gateway negative-condition-gateway: Programmed',
      'HTTPRoute negative-condition-httproute: Accepted',
      'Service negative-condition-svc: istio.io/WaypointBound',
      'ServiceEntry negative-condition-svcEntry: istio.io/WaypointBound',
    ]);
    const svc = negative(grid('condition-analyzer.yaml')).find((f) => f.subject.kind === 'Service');
    expect(svc?.severity).toBe('warning');
    expect(svc?.evidence).toMatchObject({ status: 'False', reason: 'NoWaypoint' });
    expect(svc?.part).toEqual({ kind: 'field', name: 'status.conditions[0]' });
  });

  it("judges only the kinds' own API groups: not Istio's Gateway, not a Knative Service", () => {
    const programmed = { conditions: [cond('Programmed', 'False')] };
    const unbound = { conditions: [cond('istio.io/WaypointBound', 'False')] };
    expect(
      found([
        withStatus(GW_API, 'Gateway', 'k8s-gw', programmed),
        withStatus('gateway.networking.k8s.io/v1beta1', 'Gateway', 'k8s-gw-beta', programmed),
        withStatus('networking.istio.io/v1', 'Gateway', 'istio-gw', programmed),
        withStatus('serving.knative.dev/v1', 'Service', 'knative', unbound),
        {
          kind: 'Service',
          metadata: { name: 'no-api-version', namespace: 'default' },
          status: unbound,
        },
        withStatus('networking.istio.io/v1', 'WorkloadEntry', 'we', unbound),
      ]),
    ).toEqual([
      'Gateway k8s-gw-beta: Programmed',
      'Gateway k8s-gw: Programmed',
      'WorkloadEntry we: istio.io/WaypointBound',
    ]);
  });

  it('takes only the negative status of each watched type', () => {
    const ap = (name: string, ...conditions: unknown[]) =>
      withStatus('security.istio.io/v1', 'AuthorizationPolicy', name, { conditions });
    expect(
      found([
        ap('true', cond('ZtunnelAccepted', 'True'), cond('WaypointAccepted', 'True')),
        ap('lowercase', cond('ZtunnelAccepted', 'false')),
        ap('boolean', cond('ZtunnelAccepted', false)),
        ap('unknown', cond('WaypointAccepted', 'Unknown')),
        ap('other-type', cond('Accepted', 'False')),
        // PartiallyInvalid whatever the status; False and PartiallyInvalid once
        ap('partial-false', cond('WaypointAccepted', 'False', 'PartiallyInvalid')),
        ap('partial-ztunnel', cond('ZtunnelAccepted', 'True', 'PartiallyInvalid')),
      ]),
    ).toEqual(['AuthorizationPolicy partial-false: WaypointAccepted']);
    // the PartiallyInvalid exception is AuthorizationPolicy's only
    expect(
      found([
        withStatus(GW_API, 'Gateway', 'gw', {
          conditions: [cond('Accepted', 'True', 'PartiallyInvalid')],
        }),
      ]),
    ).toEqual([]);
  });

  it('reports each condition once, identical ones once, every parent of a route', () => {
    const route = withStatus(GW_API, 'HTTPRoute', 'r', {
      parents: [
        {
          parentRef: { name: 'a' },
          conditions: [cond('Accepted', 'False', 'X', 'a'), cond('ResolvedRefs', 'False')],
        },
        { parentRef: { name: 'b' }, conditions: [cond('Accepted', 'False', 'X', 'b')] },
        { parentRef: { name: 'c' }, conditions: [cond('Accepted', 'False', 'X', 'a')] },
      ],
    });
    const out = negative([route]);
    expect(out.map((f) => f.part?.name)).toEqual([
      'status.parents[0].conditions[0]',
      'status.parents[0].conditions[1]',
      'status.parents[1].conditions[0]',
    ]);
    // a route's own status.conditions are not where the Gateway API puts them
    expect(
      found([withStatus(GW_API, 'GRPCRoute', 'g', { conditions: [cond('Accepted', 'False')] })]),
    ).toEqual([]);
  });

  it('cuts a long message, and never throws on odd shapes', () => {
    const long = negative([
      withStatus(GW_API, 'Gateway', 'gw', {
        conditions: [cond('Accepted', 'False', 'R', 'x'.repeat(1000))],
      }),
    ]);
    expect(String(long[0]?.evidence.message).length).toBeLessThan(400);
    const out = manifestFindings([
      withStatus(GW_API, 'Gateway', 'a', 'x'),
      withStatus(GW_API, 'Gateway', 'b', { conditions: 'x' }),
      withStatus(GW_API, 'Gateway', 'c', {
        conditions: [null, 'x', 3, { type: 7, status: 'False' }],
      }),
      withStatus(GW_API, 'HTTPRoute', 'd', { parents: [null, { conditions: 'x' }] }),
      withStatus(GW_API, 'HTTPRoute', 'e', { parents: 'x' }),
      withStatus('v1', 'Service', 'f', null),
      { ...withStatus(7 as unknown as string, 'Service', 'g', {}) },
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003' || f.code === 'IST0171')).toEqual([]);
  });
});
