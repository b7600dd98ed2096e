import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { archivePath, GATHERED_EVENTS_FILE } from './layout';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_PROXIES,
  bugReportEntries,
  CAPTURED_AT,
  GATEWAY,
  ZTUNNEL,
} from '../../tests/data/archive/bug-report';
import { chunksOf, packTarGz } from '../../tests/data/archive/pack';
import { DEFAULT_ARCHIVE_LIMITS } from './limits';
import { indexArchive, readArchive, type ArchiveFileSystem } from './read';
import { readTarGz } from './tar';

const nodeFs: ArchiveFileSystem = {
  ...fs.promises,
  createReadStream: (p) => fs.createReadStream(p),
};

async function indexOf(entries = bugReportEntries()) {
  return indexArchive(
    await readTarGz(chunksOf(await packTarGz(entries)), DEFAULT_ARCHIVE_LIMITS),
    'bug-report.tar.gz',
  );
}

describe('an istioctl bug-report archive of real files, indexed', () => {
  it('finds the proxies, their files and what each lacks', async () => {
    const ix = await indexOf();
    expect(ix.layout.root).toBe('bug-report/');
    const byPod = new Map(ix.proxies.map((p) => [p.pod, p]));
    for (const p of ARCHIVE_PROXIES) {
      expect(byPod.get(p.pod)?.files).toEqual({
        configDump: archivePath('proxies', p.namespace, p.pod, 'config_dump?include_eds'),
      });
      expect(byPod.get(p.pod)?.edsIncluded).toBe(true);
      // the dump read back is the fixture's, byte for byte
      const dump = JSON.parse(
        (
          await ix.read(archivePath('proxies', p.namespace, p.pod, 'config_dump?include_eds'))
        ).toString(),
      ) as { configs: unknown[] };
      expect(dump.configs.length).toBeGreaterThan(0);
    }
    expect(byPod.get(ZTUNNEL.pod)).toMatchObject({
      edsIncluded: false,
      files: { configDump: archivePath('proxies', ZTUNNEL.namespace, ZTUNNEL.pod, 'config_dump') },
    });
    expect(byPod.get(GATEWAY.pod)?.files.log).toBe(
      archivePath('proxies', GATEWAY.namespace, GATEWAY.pod, 'istio-proxy.log'),
    );
    const missing = ix.missing.map((m) => m.part);
    // each sidecar lacks its clusters text and its log; the gateway its admin files; ztunnel only its log
    expect(missing).toContain('proxies/default/details-v1-79f774bdb9-6hxw6/clusters');
    expect(missing).toContain('proxies/default/details-v1-79f774bdb9-6hxw6/istio-proxy.log');
    expect(missing).toContain(
      archivePath('proxies', GATEWAY.namespace, GATEWAY.pod, 'config_dump?include_eds'),
    );
    expect(missing).toContain(
      archivePath('proxies', ZTUNNEL.namespace, ZTUNNEL.pod, 'istio-proxy.log'),
    );
    expect(missing).not.toContain(
      archivePath('proxies', ZTUNNEL.namespace, ZTUNNEL.pod, 'clusters'),
    );
    // a pod with an istio-proxy and no files: an --include filter, or unreachable
    expect(
      ix.missing.find((m) => m.part === 'proxies/default/hello-no-files-7d9f8b6c5-abcde/')?.reason,
    ).toMatch(/--include\/--exclude/);
    expect(ix.missing.find((m) => m.part === 'istio/')?.reason).toMatch(/no istiod/);
  });

  it('reads the objects of the cluster files and the events table against the capture time', async () => {
    const ix = await indexOf();
    expect(ix.capture.time?.toISOString()).toBe(CAPTURED_AT.toISOString());
    expect(ix.capture.how).toMatch(/newest file time/);
    const kinds = ix.objects.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'Pod')).toHaveLength(5);
    expect(kinds).toContain('VirtualService');
    expect(kinds).toContain('DestinationRule');
    expect(ix.parseProblems).toEqual([]);
    expect(ix.events).toHaveLength(3);
    const unhealthy = ix.events?.[1];
    expect(unhealthy).toMatchObject({
      reason: 'Unhealthy',
      type: 'Warning',
      count: 3,
      involvedObject: {
        kind: 'Pod',
        name: 'details-v1-79f774bdb9-6hxw6',
        namespace: 'default',
        fieldPath: 'spec.containers{istio-proxy}',
      },
      lastTimestamp: new Date(CAPTURED_AT.getTime() - 150_000).toISOString(),
      firstTimestamp: new Date(CAPTURED_AT.getTime() - 240_000).toISOString(),
      source: { component: 'kubelet', host: 'node-1' },
      message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    });
    // `<unknown>` stays unknown
    expect(ix.events?.[2]?.lastTimestamp).toBeNull();
    expect(ix.missing.map((m) => m.part)).not.toContain('cluster/events');
  });

  it('says what a --skip-cluster-dump archive lacks, with the reason, and dates it by its objects when files carry no time', async () => {
    const entries = bugReportEntries({ mtime: new Date(0) }).filter(
      (e) => !/cluster\/(events|crs)$/.test(e.name),
    );
    // with the cluster dump there, no events file is a cluster without events (istioctl writes
    // no file for an empty answer)
    const dumped = await indexOf(entries);
    expect(dumped.events).toEqual([]);
    expect(dumped.missing.map((m) => m.part)).not.toContain('cluster/crs');
    const ix = await indexOf(entries.filter((e) => !e.name.endsWith('cluster/k8s-resources')));
    expect(ix.events).toBeNull();
    expect(ix.missing.find((m) => m.part === 'cluster/events')?.reason).toMatch(
      /--skip-cluster-dump/,
    );
    expect(ix.missing.find((m) => m.part === 'cluster/crs')?.reason).toMatch(
      /Istio resources are unknown/,
    );
    // the newest status time of the pods it holds
    expect(dumped.capture.how).toMatch(/newest timestamp in the archive’s objects/);
    expect(dumped.capture.time).not.toBeNull();
  });

  it('dates it by its files though a node put an object a little past them, by its objects when the files are far older', async () => {
    const newestObject = (await indexOf(bugReportEntries({ mtime: new Date(0) }))).capture.time;
    expect(newestObject).not.toBeNull();
    const at = (ms: number) => new Date((newestObject?.getTime() ?? 0) + ms);
    // a kubelet's clock a minute ahead of the machine that wrote the files
    const skewed = await indexOf(bugReportEntries({ mtime: at(-60_000) }));
    expect(skewed.capture.time?.toISOString()).toBe(at(-60_000).toISOString());
    expect(skewed.capture.how).toMatch(/newest file time/);
    // files an hour older than what they hold: repacked with fixed times
    const repacked = await indexOf(bugReportEntries({ mtime: at(-3_600_000) }));
    expect(repacked.capture.time?.toISOString()).toBe(newestObject?.toISOString());
    expect(repacked.capture.how).toMatch(/later than its file times/);
  });

  it("reads a gathered archive's events with their exact times instead of the table's ages", async () => {
    const table = (await indexOf()).events ?? [];
    expect(table.length).toBeGreaterThan(0);
    const exact = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'p.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Unhealthy',
      type: 'Warning',
      message: 'Readiness probe failed',
      firstTimestamp: '2026-03-04T05:01:02Z',
      lastTimestamp: '2026-03-04T05:03:04Z',
      count: 3,
    };
    const ix = await indexOf([
      ...bugReportEntries(),
      {
        name: `bug-report/${GATHERED_EVENTS_FILE}`,
        body: `apiVersion: v1\nkind: List\nitems:\n- ${JSON.stringify(exact)}\n`,
      },
    ]);
    expect(ix.events).toEqual([exact]);
  });

  it('reads the same archive unpacked, as a folder, whatever its first folder is named', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-archive-'));
    try {
      for (const e of bugReportEntries({ root: 'my-report/' })) {
        const p = path.join(dir, ...e.name.split('/'));
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, e.body ?? '');
        fs.utimesSync(p, CAPTURED_AT, CAPTURED_AT);
      }
      const ix = await readArchive(dir, DEFAULT_ARCHIVE_LIMITS, nodeFs);
      expect(ix.format).toBe('folder');
      expect(ix.layout.root).toBe('my-report/');
      expect(ix.proxies).toHaveLength(4);
      expect(ix.events).toHaveLength(3);
      expect(ix.capture.time?.toISOString()).toBe(CAPTURED_AT.toISOString());
      const gz = path.join(dir, 'bug-report.tgz');
      fs.writeFileSync(gz, await packTarGz(bugReportEntries()));
      const packed = await readArchive(gz, DEFAULT_ARCHIVE_LIMITS, nodeFs);
      expect(packed.name).toBe('bug-report.tgz');
      expect(packed.proxies.map((p) => p.pod).sort()).toEqual(ix.proxies.map((p) => p.pod).sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
