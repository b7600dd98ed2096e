import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitNameTail } from './name-tail';

/** Every pod name of the ztunnel config dump Istio's own test data holds. */
function fixturePodNames(): string[] {
  const file = path.join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    'shared',
    'fixtures',
    'config_dump',
    'ztunnel_config_dump.json',
  );
  const text = fs.readFileSync(file, 'utf8');
  return [...new Set([...text.matchAll(/"name": ?"([a-z0-9-]+)"/g)].map((m) => m[1] ?? ''))];
}

describe('splitNameTail', () => {
  it("keeps a Deployment pod's ReplicaSet and pod suffixes whole", () => {
    expect(splitNameTail('bookinfo-productpage-istio-waypoint-5cdd6745d5-rc2gg')).toEqual([
      'bookinfo-productpage-istio-waypoint',
      '-5cdd6745d5-rc2gg',
    ]);
    expect(splitNameTail('istiod-8c7b98fc4-mwjfp')).toEqual(['istiod', '-8c7b98fc4-mwjfp']);
  });

  it('keeps the ordinal of a StatefulSet or the suffix of a bare pod, else the last characters', () => {
    expect(splitNameTail('ztunnel-x7k2p')).toEqual(['ztunnel', '-x7k2p']);
    expect(splitNameTail('istio-ingressgateway')).toEqual(['istio-in', 'gressgateway']);
    expect(splitNameTail('abc')).toEqual(['', 'abc']);
  });

  it('never loses a character, and two pods of one workload differ in their tails', () => {
    const names = fixturePodNames();
    expect(names.length).toBeGreaterThan(5);
    for (const n of names) expect(splitNameTail(n).join('')).toBe(n);
    const a = splitNameTail('httpbin-65975d4c6f-jr69n');
    const b = splitNameTail('httpbin-7447985f87-t8hv7');
    expect(a[0]).toBe(b[0]);
    expect(a[1]).not.toBe(b[1]);
    expect(names).toContain('httpbin-65975d4c6f-jr69n');
  });
});
