import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { archivePath } from '../../lib/archive/layout';
import { ARCHIVE_PROXIES, bugReportEntries } from '../../tests/data/archive/bug-report';
import { packTarGz } from '../../tests/data/archive/pack';
import { readIstioctl } from '../../tests/data/istioctl/read';
import { run } from './clusters';
import { run as accesslog } from './accesslog';
import { run as timeline } from './timeline';
import { run as findings } from './findings';

/**
 * `meshdx clusters` on an archive in istioctl's layout assembled from the shared fixtures
 * (tests/data/archive/bug-report.ts), plus Envoy's /clusters text of one proxy (the derived
 * tests/data/istioctl/clusters-text-derived.txt).
 */
describe('meshdx clusters ARCHIVE', () => {
  const dir = tempDir('clusters-archive-');
  const file = path.join(dir, 'bug-report.tar.gz');
  const [details, waypoint] = ARCHIVE_PROXIES;
  beforeAll(async () => {
    const entries = [
      ...bugReportEntries(),
      {
        name: `bug-report/${archivePath('proxies', details.namespace, details.pod, 'clusters')}`,
        body: readIstioctl('clusters-text-derived.txt'),
      },
    ];
    fs.writeFileSync(file, await packTarGz(entries));
  });

  it('reads each proxy file by its kind, one line each, and names what the archive lacks', async () => {
    const t = fakeIO(dir);
    expect(await run([file], t)).toBe(0);
    expect(t.err).toMatch(
      /an istioctl bug-report archive \(tar\.gz, \d+ entries, 4 proxies\), captured 2026-03-04T05:06:07/,
    );
    const lines = t.out.split('\n');
    const line = (end: string) => lines.find((l) => l.startsWith(end)) ?? '';
    const dp = archivePath('proxies', details.namespace, details.pod);
    expect(line(`${dp}/config_dump?include_eds: an Envoy config dump: `)).toMatch(
      /: 28 clusters \(\d+ service\)/,
    );
    expect(line(`${dp}/clusters: Envoy's /clusters text: `)).toContain(
      '9 endpoints in 7 clusters: 1 not HEALTHY, 1 ejected by outlier detection',
    );
    // the waypoint's internal-address endpoint is an endpoint, nothing is hidden
    const wp = line(
      `${archivePath('proxies', waypoint.namespace, waypoint.pod)}/config_dump?include_eds`,
    );
    expect(wp).toContain('1 through an internal listener');
    expect(wp).not.toContain('not shown');
    expect(line('proxies/istio-system/ztunnel-8xk2p/config_dump: a ztunnel config dump: ')).toMatch(
      /\d+ workloads, \d+ services/,
    );
    expect(t.out).toContain('not in the archive (unknown, not zero):');
    expect(t.out).toMatch(
      /proxies\/default\/httpbin-istio-waypoint-58f646c5ff-dbfkz\/clusters: not in the archive/,
    );
  });

  it('gives the same per file in --json, and refuses --history with an archive', async () => {
    const j = fakeIO(dir);
    expect(await run([file, '--json'], j)).toBe(0);
    const out = JSON.parse(j.out) as { files: { file: string; endpoints?: { rows: number } }[] };
    expect(out.files.find((f) => f.file.endsWith('/clusters'))?.endpoints?.rows).toBe(9);
    const h = fakeIO(dir);
    expect(await run([file, '--history', file], h)).toBe(2);
    expect(h.err).toContain('name one of the archive');
  });

  it('accesslog reads each istio-proxy.log of it, never the archive bytes', async () => {
    const t = fakeIO(dir);
    const code = await accesslog([file], t);
    expect(t.out).not.toMatch(/binary/);
    expect(t.err + t.out).toContain(
      'proxies/istio-system/istio-ingressgateway-6f9df9b8-mhl5v/istio-proxy.log',
    );
    expect(code).toBe(0);
  });

  it('timeline judges the pods of cluster/ with its events; findings checks its resources and CRs', async () => {
    const t = fakeIO(dir);
    expect(await timeline([file], t)).toBe(0);
    expect(t.err).toMatch(/read 5 pods from cluster\/, 3 events from cluster\/events/);
    expect(t.out).toContain(details.pod);
    const f = fakeIO(dir);
    await findings([file], f);
    expect(f.err).toContain('cluster/k8s-cluster-resources: not in the archive');
    // the VirtualServices of the archive's crs are checked (pilot's testdata refers to hosts
    // the archive has no Service for)
    expect(f.out).toContain('IST0101');
    // beside the archive's own istioctl analyze (its analyze/allNamespaces)
    expect(f.out).toMatch(
      /beside the archive's istioctl analyze: \d+ agreed, \d+ only istioctl, \d+ only meshdx/,
    );
    expect(f.out).toContain('only meshdx: IST0101 (VirtualService testns/all)');
    expect(f.out).not.toMatch(/binary data/);
  });

  it('judges no Gateway credential of an archive, which holds no Secrets, and says so', async () => {
    const gatewayFile = path.join(dir, 'gateway-credential.tar.gz');
    const gateway = [
      'apiVersion: networking.istio.io/v1',
      'kind: Gateway',
      'metadata: {name: web, namespace: default}',
      'spec:',
      '  selector: {istio: ingressgateway}',
      '  servers:',
      '  - port: {number: 443, name: https, protocol: HTTPS}',
      '    hosts: [web.example.com]',
      '    tls: {mode: SIMPLE, credentialName: web-cert}',
    ].join('\n');
    const entries = bugReportEntries().map((e) =>
      e.name.endsWith('cluster/crs')
        ? { ...e, body: `${String(e.body)}---\n${gateway}\n` }
        : e.name.endsWith('analyze/allNamespaces')
          ? {
              ...e,
              body: `${String(e.body)}Error [IST0161] (Gateway default/web) Gateway refers to invalid secret web-cert\n`,
            }
          : e,
    );
    fs.writeFileSync(gatewayFile, await packTarGz(entries));
    const f = fakeIO(dir);
    await findings([gatewayFile, '--json'], f);
    const out = JSON.parse(f.out) as {
      findings: { code: string }[];
      istioctlAnalyze: { onlyIstioctl: { code: string }[]; notClaimed: { code: string }[] };
    };
    // a missing Secret is not known to be missing: the archive left every Secret out
    expect(out.findings.map((x) => x.code)).not.toContain('IST0161');
    expect(out.istioctlAnalyze.onlyIstioctl.map((m) => m.code)).not.toContain('IST0161');
    expect(out.istioctlAnalyze.notClaimed.map((m) => m.code)).toContain('IST0161');
  });
});
