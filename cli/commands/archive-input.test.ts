import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { readFixture } from '../../test-support/fixtures';
import { archiveInputKind } from './archive-input';
import { run as timeline } from './timeline';
import { run as clusters } from './clusters';
import { run as accesslog } from './accesslog';
import { run as findings } from './findings';
import { run as attribute } from './attribute';

describe('an archive given to a command that reads one file', () => {
  const dir = tempDir('meshdx-archive-input-');
  const tarGz = path.join(dir, 'bug-report.tar.gz');
  const tar = path.join(dir, 'bug-report.tar');
  const folder = path.join(dir, 'unpacked');
  beforeAll(() => {
    // istioctl's layout (../shared/fixtures/bug_report): bug-report/proxies/NS/POD/clusters...
    const proxy = path.join(
      folder,
      'bug-report',
      'proxies',
      'default',
      'reviews-v1-5b5d6494f4-qwjv4',
    );
    fs.mkdirSync(proxy, { recursive: true });
    fs.mkdirSync(path.join(folder, 'bug-report', 'cluster'));
    fs.writeFileSync(
      path.join(proxy, 'clusters'),
      readFixture('clusters', 'istioctl_clusters_format_json.json'),
    );
    // a tar header: the name, then `ustar` at 257 (POSIX), the rest zero
    const header = Buffer.alloc(1024);
    header.write('bug-report/versions', 0, 'latin1');
    header.write('ustar', 257, 'latin1');
    fs.writeFileSync(tar, header);
    fs.writeFileSync(tarGz, gzipSync(header));
  });

  it('tells gzip, tar and an unpacked folder from their bytes and names, never the file name', () => {
    expect(archiveInputKind(tarGz)).toBe('gzip');
    expect(archiveInputKind(tar)).toBe('tar');
    expect(archiveInputKind(folder)).toBe('folder');
    const renamed = path.join(dir, 'dump.json');
    fs.copyFileSync(tarGz, renamed);
    expect(archiveInputKind(renamed)).toBe('gzip');
    expect(archiveInputKind(path.join(folder, 'bug-report', 'proxies'))).toBeNull();
    expect(archiveInputKind(path.join(dir, 'none'))).toBeNull();
  });

  it('a command that reads no archive names it and the command that opens it, exit 2', async () => {
    const cases: [string, () => Promise<number>, ReturnType<typeof fakeIO>][] = [];
    for (const [name, cmd, args] of [
      ['attribute', attribute, [tarGz, '--history', tarGz]],
      ['attribute', attribute, [folder, '--history', tarGz]],
    ] as const) {
      const t = fakeIO(dir);
      cases.push([name, () => cmd([...args], t), t]);
    }
    for (const [name, go, t] of cases) {
      expect(await go(), name).toBe(2);
      expect(t.err, name).toMatch(/is (a gzip|a tar|an unpacked `istioctl bug-report`) archive/);
      expect(t.err, name).toContain('`meshdx open ');
      expect(t.err, name).not.toMatch(/binary data/);
      expect(t.out, name).toBe('');
    }
  });

  it('clusters and accesslog read it, and say so when it is no archive they can read', async () => {
    const c = fakeIO(dir);
    expect(await clusters([folder], c)).toBe(0);
    expect(c.err).toContain('an istioctl bug-report archive (folder');
    expect(c.out).toContain(
      "proxies/default/reviews-v1-5b5d6494f4-qwjv4/clusters: Envoy's /clusters?format=json: 9 endpoints",
    );
    // a tar that is not gzip'd (istioctl never writes one), and a gzip of a tar cut after its
    // first header: named, never read as text
    for (const [name, cmd, arg] of [
      ['accesslog', accesslog, tar],
      ['timeline', timeline, tarGz],
      ['findings', findings, tarGz],
      ['clusters', clusters, tar],
    ] as const) {
      const a = fakeIO(dir);
      expect(await cmd([arg], a), name).toBe(2);
      expect(a.err, name).toMatch(/cannot read the archive|the archive ends early/);
      expect(a.err + a.out, name).not.toMatch(/binary data|lines/);
    }
  });
});
