import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { DestinationRule } from '../kube/types';
import { destinationRuleFor } from './destinationrule';

/** istio/istio pilot testdata: a DestinationRule using every field, subsets v1 and v2. */
function fixtureRule(): DestinationRule {
  const docs = parseAllDocuments(
    readFixture('istio_config', 'pilot_testdata_config', 'destination-rule-all.yaml'),
  ).map((d) => d.toJS() as DestinationRule);
  const dr = docs.find((d) => d.kind === 'DestinationRule' && d.metadata.name === 'destall');
  if (!dr) throw new Error('destination-rule-all.yaml has no DestinationRule destall');
  return { ...dr, metadata: { ...dr.metadata, creationTimestamp: '2024-01-01T00:00:00Z' } };
}

const HOST = 'destall.default.svc.cluster.local';

function later(
  name: string,
  namespace: string,
  spec: Partial<DestinationRule['spec']>,
): DestinationRule {
  return {
    apiVersion: 'networking.istio.io/v1',
    kind: 'DestinationRule',
    metadata: { name, namespace, creationTimestamp: '2024-02-01T00:00:00Z' },
    spec: { host: HOST, ...spec },
  };
}

describe('destinationRuleFor', () => {
  it('merges rules of one namespace for one host: the oldest policy, every new subset', () => {
    const first = fixtureRule();
    const second = later('destall-canary', 'testns', {
      subsets: [{ name: 'v2' }, { name: 'canary', labels: { track: 'canary' } }],
      trafficPolicy: { outlierDetection: { consecutive5xxErrors: 1 } },
    });
    const got = destinationRuleFor(HOST, 'testns', 'default', [second, first], 'istio-system');
    expect(got?.metadata.name).toBe('destall');
    expect(got?.spec.subsets?.map((s) => s.name)).toEqual(['v1', 'v2', 'canary']);
    expect(got?.spec.trafficPolicy?.outlierDetection).toEqual(
      first.spec.trafficPolicy?.outlierDetection,
    );
  });

  it('does not merge rules exported differently', () => {
    const second = later('destall-private', 'testns', {
      exportTo: ['.'],
      subsets: [{ name: 'x' }],
    });
    const got = destinationRuleFor(
      HOST,
      'testns',
      'default',
      [fixtureRule(), second],
      'istio-system',
    );
    expect(got?.spec.subsets?.map((s) => s.name)).toEqual(['v1', 'v2']);
  });

  it('gives a root-namespace client the service namespace rule before an exported root rule', () => {
    const inRoot = {
      ...fixtureRule(),
      metadata: { ...fixtureRule().metadata, namespace: 'istio-system' },
    };
    const owner = later('owner', 'default', { subsets: [{ name: 'o' }] });
    expect(
      destinationRuleFor(HOST, 'istio-system', 'default', [inRoot, owner], 'istio-system')?.metadata
        .name,
    ).toBe('owner');
    // elsewhere the client's own namespace still comes first
    expect(
      destinationRuleFor(HOST, 'default', 'default', [inRoot, owner], 'istio-system')?.metadata
        .name,
    ).toBe('owner');
    expect(
      destinationRuleFor(HOST, 'web', 'shop', [inRoot, owner], 'istio-system')?.metadata.name,
    ).toBe('destall');
    const privateRoot = later('private', 'istio-system', { exportTo: ['.'] });
    expect(
      destinationRuleFor(
        HOST,
        'istio-system',
        'default',
        [inRoot, owner, privateRoot],
        'istio-system',
      )?.metadata.name,
    ).toBe('private');
  });

  it('never lets a workloadSelector rule stand for the namespace', () => {
    const selecting = later('canary', 'testns', { subsets: [{ name: 'canary' }] });
    (selecting.spec as { workloadSelector?: unknown }).workloadSelector = {
      matchLabels: { app: 'web' },
    };
    selecting.metadata.creationTimestamp = '2023-01-01T00:00:00Z';
    const got = destinationRuleFor(
      HOST,
      'testns',
      'default',
      [selecting, fixtureRule()],
      'istio-system',
    );
    expect(got?.metadata.name).toBe('destall');
    expect(destinationRuleFor(HOST, 'web', 'testns', [selecting], 'istio-system')).toBeUndefined();
  });
});
