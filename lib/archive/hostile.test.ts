import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunksOf, claimSize, packTar, packTarGz } from '../../tests/data/archive/pack';
import { ArchiveError } from './contents';
import { readArchiveFolder } from './folder';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './limits';
import { readTarGz } from './tar';

// Each hostile form of issue 47: refused (ArchiveError) or skipped with the entry named, the
// other entries read, memory bounded; the reader writes nothing anywhere.
const limits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS };
const ok = { name: 'bug-report/versions', body: 'Revision default: 1.26.0\n' };

async function read(b: Buffer, l: ArchiveLimits = limits) {
  return readTarGz(chunksOf(b), l);
}

async function refusal(p: Promise<unknown>): Promise<ArchiveError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ArchiveError);
  return e as ArchiveError;
}

describe('hostile archives', () => {
  it('skips entries whose names climb out with `..`, naming each, and reads the rest', async () => {
    const r = await read(
      await packTarGz([
        ok,
        { name: 'bug-report/../../etc/cron.d/x', body: 'evil' },
        { name: '../x', body: 'evil' },
      ]),
    );
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r.problems.map((p) => [p.entry, p.reason])).toEqual([
      ['bug-report/../../etc/cron.d/x', 'unsafe-path'],
      ['../x', 'unsafe-path'],
    ]);
    expect(r.problems[0]?.message).toContain('climbs out');
    await expect(r.read('etc/cron.d/x')).rejects.toThrow(/no entry/);
  });

  it('skips absolute paths and drive-letter paths', async () => {
    const r = await read(
      await packTarGz([
        { name: '/etc/passwd', body: 'root:x:0:0' },
        { name: 'C:/Windows/x', body: 'x' },
        ok,
      ]),
    );
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/"\/etc\/passwd".*absolute path/),
      expect.stringMatching(/"C:\/Windows\/x".*drive-letter/),
    ]);
  });

  it('skips symbolic and hard links, naming their targets, and never reads through them', async () => {
    const r = await read(
      await packTarGz([
        { name: 'bug-report/cluster/k8s-resources', type: 'symlink', linkname: '/etc/shadow' },
        { name: 'bug-report/cluster/crs', type: 'link', linkname: 'bug-report/versions' },
        ok,
      ]),
    );
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r.problems.map((p) => [p.entry, p.reason])).toEqual([
      ['bug-report/cluster/k8s-resources', 'link'],
      ['bug-report/cluster/crs', 'link'],
    ]);
    expect(r.problems[0]?.message).toMatch(/symbolic link to "\/etc\/shadow"/);
    expect(r.problems[1]?.message).toMatch(/hard link/);
  });

  it('refuses a gzip bomb by its ratio, under the default limits', async () => {
    // 80 MiB of zeros packs to some 80 KiB: a ratio of ~1000, where a real archive has 5 to 30
    const bomb = await packTarGz([
      { name: 'bug-report/proxies/a/b/istio-proxy.log', body: Buffer.alloc(80 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const e = await refusal(read(bomb));
    expect(e.reason).toBe('gzip-bomb');
    expect(e.message).toMatch(/expands \d+ times.*over the limit of 200/);
    expect(e.entry).toBe('bug-report/proxies/a/b/istio-proxy.log');
  });

  it('refuses an archive that expands past the total bound, whatever its ratio', async () => {
    const many = await packTarGz(
      Array.from({ length: 8 }, (_, i) => ({
        name: `bug-report/f${i}`,
        body: Buffer.alloc(256 * 1024, i),
      })),
    );
    const e = await refusal(
      read(many, { ...limits, maxExpandedBytes: 1024 * 1024, ratioAfterBytes: Infinity }),
    );
    expect(e.reason).toBe('gzip-bomb');
    expect(e.message).toMatch(/expands past 1 MiB/);
  });

  it('skips an entry whose header claims 10 GB, never allocating it, and names it', async () => {
    const tar = claimSize(
      await packTar([
        ok,
        { name: 'bug-report/proxies/default/p/istio-proxy.log', body: 'small body' },
      ]),
      'bug-report/proxies/default/p/istio-proxy.log',
      10 * 1024 ** 3,
    );
    const before = process.memoryUsage().arrayBuffers;
    const r = await read(gzipSync(tar));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 1024 * 1024);
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r.problems[0]).toMatchObject({
      entry: 'bug-report/proxies/default/p/istio-proxy.log',
      reason: 'too-large',
    });
    expect(r.problems[0]?.message).toMatch(/10240 MiB, over the limit of 512 MiB per entry/);
    // the claimed bytes are not there: the archive ends inside that entry, and says so
    expect(r.problems[1]).toMatchObject({
      entry: 'bug-report/proxies/default/p/istio-proxy.log',
      reason: 'truncated',
    });
  });

  it('keeps the entries read whole before a cut, and names the entry the cut falls in', async () => {
    const tar = await packTar([
      ok,
      { name: 'bug-report/cluster/crs', body: 'kind: List\nitems: []\n'.repeat(2000) },
      { name: 'bug-report/analyze/allNamespaces', body: 'Info [IST0102] (Namespace default) x\n' },
    ]);
    const cutTar = tar.subarray(0, 512 + 512 + 512 + 4096);
    const r = await read(gzipSync(cutTar));
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r.problems).toEqual([
      expect.objectContaining({ entry: 'bug-report/cluster/crs', reason: 'truncated' }),
    ]);
    // a gzip stream cut short (a download that stopped) reads the same way
    const gz = gzipSync(tar);
    const r2 = await read(gz.subarray(0, Math.floor(gz.length / 2)));
    expect(r2.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect(r2.problems[0]?.reason).toBe('truncated');
    expect(r2.problems[0]?.message).toMatch(/ends inside entry "bug-report\/cluster\/crs"/);
  });

  it('refuses a file that is not gzip: a plain tar, a text file, an empty file', async () => {
    const plain = await refusal(read(await packTar([ok])));
    expect(plain.reason).toBe('not-gzip');
    expect(plain.message).toMatch(/not a gzip file.*istioctl bug-report is a \.tar\.gz/);
    expect((await refusal(read(Buffer.from('NAME READY STATUS\n')))).message).toMatch(
      /starts with "NAME REA/,
    );
    expect((await refusal(read(Buffer.alloc(0)))).message).toMatch(/empty/);
  });

  it('keeps the first of duplicate entries and names the second', async () => {
    const r = await read(
      await packTarGz([
        { name: 'bug-report/versions', body: 'first' },
        { name: './bug-report//versions', body: 'second' },
      ]),
    );
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/versions']);
    expect((await r.read('bug-report/versions')).toString()).toBe('first');
    expect(r.problems).toEqual([
      expect.objectContaining({ entry: './bug-report//versions', reason: 'duplicate' }),
    ]);
  });

  it('refuses an archive of more entries than the bound, and skips entries past the memory bound', async () => {
    const files = Array.from({ length: 5 }, (_, i) => ({
      name: `bug-report/f${i}`,
      body: 'x'.repeat(100),
    }));
    const gz = await packTarGz(files);
    expect((await refusal(read(gz, { ...limits, maxEntries: 3 }))).reason).toBe('too-many-entries');
    const r = await read(gz, { ...limits, maxStoredBytes: 250 });
    expect(r.entries.map((e) => e.name)).toEqual(['bug-report/f0', 'bug-report/f1']);
    expect(r.problems.map((p) => p.reason)).toEqual(['store-full', 'store-full', 'store-full']);
  });

  it('skips devices and fifos', async () => {
    const r = await read(await packTarGz([{ name: 'bug-report/fifo', type: 'fifo' }, ok]));
    expect(r.problems).toEqual([
      expect.objectContaining({ entry: 'bug-report/fifo', reason: 'not-a-file' }),
    ]);
  });

  it('writes nothing anywhere: reading an archive of `..` entries leaves a folder as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-archive-'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      await read(
        await packTarGz([
          { name: '../escaped', body: 'x' },
          { name: 'inside', body: 'y' },
        ]),
      );
      expect(fs.readdirSync(dir)).toEqual([]);
      expect(fs.existsSync(path.join(dir, '..', 'escaped'))).toBe(false);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hostile folders', () => {
  it('skips symbolic links and hard-linked files, naming each, and reads regular files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-archive-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-outside-'));
    try {
      fs.mkdirSync(path.join(dir, 'cluster'));
      fs.writeFileSync(path.join(dir, 'versions'), 'v');
      fs.writeFileSync(path.join(outside, 'secret'), 'secret');
      fs.symlinkSync(path.join(outside, 'secret'), path.join(dir, 'cluster', 'k8s-resources'));
      fs.linkSync(path.join(outside, 'secret'), path.join(dir, 'cluster', 'crs'));
      const r = await readArchiveFolder(dir, fs.promises, limits);
      expect(r.entries.map((e) => e.name)).toEqual(['versions']);
      expect(r.problems.map((p) => [p.entry, p.reason])).toEqual([
        ['cluster/crs', 'link'],
        ['cluster/k8s-resources', 'link'],
      ]);
      expect((await r.read('versions')).toString()).toBe('v');
      await expect(r.read('cluster/crs')).rejects.toThrow(/no entry/);
      expect(
        (await readArchiveFolder(dir, fs.promises, { ...limits, maxEntryBytes: 0 })).problems.map(
          (p) => p.reason,
        ),
      ).toContain('too-large');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
