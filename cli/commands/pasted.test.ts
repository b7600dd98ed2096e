import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { run as clusters } from './clusters';
import { run as accesslog } from './accesslog';
import { run as timeline } from './timeline';
import fs from 'node:fs';
import { stringify } from 'yaml';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath, readFixture } from '../../test-support/fixtures';

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

  it('meshdx clusters reads `istioctl zc all`: its tables, and its -o json and -o yaml dumps', async () => {
    const t = fakeIO(dir);
    // the connections table of istioctl's test data has no place in the model: exit 1, named
    expect(await clusters([pasted('zc-all-istioctl-testdata.txt'), '--json'], t)).toBe(1);
    const out = JSON.parse(t.out) as { workloads: unknown[]; services: unknown[] };
    expect([out.workloads.length, out.services.length]).toEqual([27, 19]);
    expect(t.err).toContain('the connections table (8 rows) is not read');
    // `all -o json` prints ztunnel's /config_dump unchanged (istioctl PrintFullDump), `-o yaml`
    // the same as YAML: the shared dump is istioctl's own test input for `all`
    const j = fakeIO(dir);
    const dump = fixturePath('config_dump', 'ztunnel_config_dump.json');
    expect(await clusters([dump, '--json'], j)).toBe(0);
    expect((JSON.parse(j.out) as { workloads: unknown[] }).workloads).toHaveLength(27);
    const yamlFile = path.join(dir, 'zc-all-o-yaml.yaml');
    fs.writeFileSync(
      yamlFile,
      stringify(JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json'))),
    );
    const y = fakeIO(dir);
    expect(await clusters([yamlFile, '--json'], y)).toBe(0);
    expect(y.out).toBe(j.out);
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
    const d = fakeIO(dir);
    expect(await accesslog([fixturePath('config_dump', 'ztunnel_config_dump.json')], d)).toBe(2);
    expect(d.err).toMatch(
      /looks like a ztunnel config dump \(`istioctl ztunnel-config all -o json`\): `meshdx clusters FILE` reads it/,
    );
  });

  it('meshdx timeline reads `kubectl describe pod` text, and names a describe of another kind', async () => {
    const t = fakeIO(dir);
    expect(await timeline([pasted('describe-init-crashloop-istio-16481.txt')], t)).toBe(0);
    expect(t.out).toMatch(/^myapp-test +myapp-deployment-57564dcfd5-zjmjw +classic +- /m);
    expect(t.out).toContain('not judged: the paste ends before its Containers section');
    expect(t.out).toContain(
      'note: istio-init is waiting (CrashLoopBackOff); its last run ended Error, exit code 1',
    );
    const crlf = path.join(dir, 'describe-crlf.txt');
    fs.writeFileSync(
      crlf,
      fs
        .readFileSync(pasted('describe-init-crashloop-istio-16481.txt'), 'utf8')
        .replace(/\n/g, '\r\n'),
    );
    const w = fakeIO(dir);
    expect(await timeline([crlf], w)).toBe(0);
    expect(w.out.replaceAll(crlf, 'F')).toBe(
      t.out.replaceAll(pasted('describe-init-crashloop-istio-16481.txt'), 'F'),
    );
    const d = fakeIO(dir);
    expect(await timeline([pasted('describe-deployment-k8s-docs.txt')], d)).toBe(2);
    expect(d.err).toContain(
      "nginx-deployment: this looks like `kubectl describe deployment` output, not a pod's",
    );
    const c = fakeIO(dir);
    expect(await clusters([pasted('describe-init-crashloop-istio-16481.txt')], c)).toBe(2);
    expect(c.err).toContain(
      'this looks like `kubectl describe pod` output: `meshdx timeline FILE` reads it',
    );
    const a = fakeIO(dir);
    expect(await accesslog([pasted('describe-classic-running-vscode-k8s-tools-994.txt')], a)).toBe(
      2,
    );
    expect(a.err).toContain(
      'this looks like `kubectl describe pod` output: `meshdx timeline FILE` reads it',
    );
  });
});
