import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { run as clusters } from './clusters';
import { run as accesslog } from './accesslog';
import { run as timeline } from './timeline';
import { fakeIO, tempDir } from '../../test-support/cli-io';

const dir = tempDir('pasted');
const pasted = (name: string) =>
  path.resolve(import.meta.dirname, '..', '..', 'tests', 'data', 'pasted', name);

describe('pasted istioctl ztunnel-config output and files of another kind', () => {
  it('meshdx clusters reads `istioctl zc workloads -o json`, a list, not "not an Envoy config dump"', async () => {
    const t = fakeIO(dir);
    expect(await clusters([pasted('zc-workloads-o-json.json'), '--json'], t)).toBe(0);
    expect(t.err).toBe('');
    const out = JSON.parse(t.out) as { kind: string; workloads: { name: string }[] };
    expect(out.kind).toBe('ztunnel');
    expect(out.workloads).toHaveLength(27);
  });

  it('meshdx clusters reads the workloads and services tables people paste', async () => {
    const t = fakeIO(dir);
    expect(await clusters([pasted('zc-workloads-istio-docs.txt')], t)).toBe(0);
    expect(t.out).toMatch(/^NAMESPACE +NAME +IP +NODE +WAYPOINT +PROTOCOL$/m);
    expect(t.out).toMatch(
      /^default +details-v1-cf74bb974-5sqkp +10\.244\.1\.5 +ambient-worker +None +HBONE$/m,
    );
    const s = fakeIO(dir);
    expect(await clusters([pasted('zc-services-istioctl-testdata.txt')], s)).toBe(0);
    expect(s.out).toMatch(/^bookinfo +details +10\.96\.200\.228 +None +1$/m);
  });

  it('a file of one kind given to a command for another says what it is and who reads it', async () => {
    const c = fakeIO(dir);
    expect(await clusters([pasted('ztunnel-openshift-crc-errors.log')], c)).toBe(2);
    expect(c.err).toMatch(/looks like a ztunnel access log: `meshdx accesslog FILE` reads it/);
    const a = fakeIO(dir);
    expect(await accesslog([pasted('zc-workloads-istio-docs.txt')], a)).toBe(2);
    expect(a.err).toMatch(
      /looks like `istioctl ztunnel-config workloads` output \(table\): `meshdx clusters FILE` reads it/,
    );
    const tl = fakeIO(dir);
    expect(await timeline([pasted('zc-services-o-json.json')], tl)).toBe(2);
    expect(tl.err).toMatch(
      /`istioctl ztunnel-config services` output \(json\): `meshdx clusters FILE`/,
    );
  });
});
