import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import { RefError } from './ref-error';
import {
  kindName,
  kubectlRef,
  parseWorkloadKey,
  parseWorkloadRef,
  parseWorkloadText,
  sameWorkload,
  workloadKey,
  workloadNameKey,
  workloadOf,
  workloadOfOwner,
  workloadText,
} from './workload-ref';

// the injector's output files end with a '---' separator: take the first document
const pod = (file: string) =>
  parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;

describe('workloadOf', () => {
  it('maps a ReplicaSet pod to its Deployment even when the hash label is from an old encoding', () => {
    expect(workloadOf(pod('kube-dns_pod_with_status.yaml'))).toEqual({
      namespace: 'kube-system',
      kind: 'Deployment',
      name: 'kube-dns',
    });
  });
  it('uses the pod-template-hash label when it matches', () => {
    const p: Pod = {
      metadata: {
        name: 'payments-7d4b9c8f6d-x2x9q',
        namespace: 'shop',
        labels: { 'pod-template-hash': '7d4b9c8f6d' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'payments-7d4b9c8f6d', controller: true }],
      },
      spec: { containers: [] },
    };
    expect(workloadOf(p)).toEqual({ namespace: 'shop', kind: 'Deployment', name: 'payments' });
  });
  it('prefers the controller owner and keeps StatefulSets, CronJobs and bare pods', () => {
    const sts: Pod = {
      metadata: {
        name: 'db-0',
        namespace: 'shop',
        ownerReferences: [
          { kind: 'ConfigMap', name: 'x' },
          { kind: 'StatefulSet', name: 'db', controller: true },
        ],
      },
      spec: { containers: [] },
    };
    expect(workloadOf(sts)).toEqual({ namespace: 'shop', kind: 'StatefulSet', name: 'db' });
    expect(workloadOf({ metadata: { name: 'debug' }, spec: { containers: [] } })).toEqual({
      namespace: 'default',
      kind: 'Pod',
      name: 'debug',
    });
    expect(
      workloadOfOwner({ kind: 'Job', name: 'backup-28930412' }, { namespace: 'ops', name: 'p' }),
    ).toEqual({ namespace: 'ops', kind: 'CronJob', name: 'backup' });
    expect(
      workloadOfOwner({ kind: 'Job', name: 'migrate' }, { namespace: 'ops', name: 'p' }),
    ).toEqual({ namespace: 'ops', kind: 'Job', name: 'migrate' });
    expect(
      workloadOfOwner({ kind: 'ReplicaSet', name: 'x' }, { namespace: 'ops', name: 'x-1' }),
    ).toEqual({ namespace: 'ops', kind: 'ReplicaSet', name: 'x' });
    expect(workloadOfOwner(null, { namespace: 'ops', name: 'bare' })).toEqual({
      namespace: 'ops',
      kind: 'Pod',
      name: 'bare',
    });
  });
  it('survives a malformed pod', () => {
    expect(
      workloadOf({ metadata: { name: 'x', ownerReferences: 'no' } } as unknown as Pod),
    ).toEqual({
      namespace: 'default',
      kind: 'Pod',
      name: 'x',
    });
  });
});

describe('workload references', () => {
  const ref = { namespace: 'kube-system', kind: 'Deployment', name: 'kube-dns' };

  it('formats every form from one reference and reads them back', () => {
    expect(workloadKey(ref)).toBe('kube-system/Deployment/kube-dns');
    expect(workloadText(ref)).toBe('Deployment kube-system/kube-dns');
    expect(workloadNameKey(ref.namespace, ref.name)).toBe('kube-system/kube-dns');
    expect(kubectlRef(ref)).toBe('deployment/kube-dns');
    expect(kindName(ref)).toBe('Deployment/kube-dns');
    expect(parseWorkloadKey(workloadKey(ref))).toEqual(ref);
    expect(parseWorkloadText(workloadText(ref))).toEqual(ref);
    expect(parseWorkloadRef(workloadKey(ref))).toEqual(ref);
    expect(parseWorkloadRef(` ${workloadText(ref)} `)).toEqual(ref);
    expect(sameWorkload(ref, parseWorkloadRef(workloadText(ref)))).toBe(true);
    expect(sameWorkload(ref, { ...ref, kind: 'StatefulSet' })).toBe(false);
  });

  it('keeps dots in names', () => {
    const dotted = { namespace: 'istio-system', kind: 'Deployment', name: 'gw.v2' };
    expect(parseWorkloadRef(workloadText(dotted))).toEqual(dotted);
    expect(parseWorkloadRef(workloadKey(dotted))).toEqual(dotted);
  });

  it('names the problem of bad input', () => {
    expect(() => parseWorkloadKey('shop/web')).toThrow(RefError);
    expect(() => parseWorkloadKey('shop/web')).toThrow(
      /not a workload reference: "shop\/web": expected NAMESPACE\/KIND\/NAME, found 2 part/,
    );
    expect(() => parseWorkloadKey('shop/deployment/web')).toThrow(
      /kind "deployment" is not a Kubernetes kind/,
    );
    expect(() => parseWorkloadText('Deployment')).toThrow(/there is no space/);
    expect(() => parseWorkloadText('Deployment shop-web')).toThrow(/exactly one "\/"/);
    expect(() => parseWorkloadText('Deployment /web')).toThrow(/the namespace is empty/);
    expect(() => parseWorkloadText('Deployment shop/Web')).toThrow(
      /name "Web" is not a DNS subdomain/,
    );
  });
});
