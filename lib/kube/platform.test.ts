import { describe, expect, it } from 'vitest';
import { platformOf } from './platform';

describe('platformOf', () => {
  it('names the distributions that mark their builds, and the simulator in words', () => {
    expect(platformOf('v1.30.4-eks-a737599')).toBe('Amazon EKS');
    expect(platformOf('v1.30.5-gke.1014001')).toBe('Google GKE');
    expect(platformOf('v1.30.6+k3s1')).toBe('k3s');
    expect(platformOf('v1.30.6+rke2r1')).toBe('RKE2');
    expect(platformOf('v1.31.0-meshdx-sim')).toBe('simulated cluster (meshdx simulator)');
  });

  it('says nothing for an upstream build or no version', () => {
    expect(platformOf('v1.31.0')).toBeNull();
    expect(platformOf('v1.27.6+f67aeb3')).toBeNull();
    expect(platformOf(null)).toBeNull();
    expect(platformOf('')).toBeNull();
  });
});
