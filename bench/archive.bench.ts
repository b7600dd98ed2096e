import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { stringify } from 'yaml';
import { freePort } from '../test-support/ports';
import { readFixture } from '../test-support/fixtures';
import { listenerPid } from './next-server';
import { ms, type BenchResult } from './support';

/**
 * `meshdx open` on an istioctl bug-report archive of 2,000 proxies (20 namespaces): from
 * spawning the command (the CLI bundle already built, the dashboard's production build present)
 * to the first answer of the Proxies view (`/api/proxies/fleet`), which reads every proxy's
 * `stats/prometheus` through the archive's API server. Each proxy's `config_dump?include_eds` is
 * istioctl's all-types testdata dump (56 KB, ../shared/fixtures/config_dump), its stats a
 * Prometheus text with that dump's cluster count. Peak RSS is the archive server's plus the
 * dashboard's (each process's VmHWM).
 */
const PROXIES = 2_000;
const NAMESPACES = 20;
const root = path.resolve(import.meta.dirname, '..');

export async function writeArchive(file: string): Promise<void> {
  const dump = readFixture('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json');
  const captured = new Date('2026-11-01T12:00:00Z');
  const started = new Date(captured.getTime() - 3_600_000).toISOString();
  const pods = Array.from({ length: PROXIES }, (_, i) => {
    const ns = `team-${i % NAMESPACES}`;
    const name = `svc-${Math.floor(i / NAMESPACES)}-7d9f8b6c5-${String(i).padStart(5, '0')}`;
    const ip = `10.${20 + Math.floor(i / 65_000)}.${Math.floor(i / 250) % 256}.${(i % 250) + 2}`;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: ns,
        uid: `uid-${i}`,
        labels: { app: `svc-${Math.floor(i / NAMESPACES)}` },
        creationTimestamp: started,
      },
      spec: {
        nodeName: `node-${i % 50}`,
        containers: [
          { name: 'app', image: 'example/app:1' },
          {
            name: 'istio-proxy',
            image: 'docker.io/istio/proxyv2:1.26.0',
            args: ['proxy', 'sidecar'],
          },
        ],
      },
      status: {
        phase: 'Running',
        podIP: ip,
        podIPs: [{ ip }],
        hostIP: `10.128.0.${i % 50}`,
        startTime: started,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: started }],
        containerStatuses: ['app', 'istio-proxy'].map((c) => ({
          name: c,
          ready: true,
          restartCount: 0,
          image: '',
          imageID: '',
          state: { running: { startedAt: started } },
        })),
      },
    };
  });
  const p = pack();
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', () => resolve());
    out.on('error', reject);
  });
  p.pipe(createGzip()).pipe(out);
  const put = (name: string, body: string) =>
    new Promise<void>((resolve, reject) =>
      p.entry({ name: `bug-report/${name}`, mtime: captured }, body, (e) =>
        e ? reject(e) : resolve(),
      ),
    );
  await put('cluster/k8s-resources', stringify({ apiVersion: 'v1', kind: 'List', items: pods }));
  for (const pod of pods) {
    const dir = ['proxies', pod.metadata.namespace, pod.metadata.name].join('/');
    await put(`${dir}/config_dump?include_eds`, dump);
    await put(
      `${dir}/stats/prometheus`,
      [
        '# TYPE envoy_cluster_manager_active_clusters gauge',
        'envoy_cluster_manager_active_clusters{} 3',
        '# TYPE envoy_cluster_manager_warming_clusters gauge',
        'envoy_cluster_manager_warming_clusters{} 0',
        '# TYPE envoy_listener_manager_total_listeners_active gauge',
        'envoy_listener_manager_total_listeners_active{} 2',
        '# TYPE envoy_server_memory_allocated gauge',
        'envoy_server_memory_allocated{} 41943040',
        '# TYPE envoy_server_state gauge',
        'envoy_server_state{} 0',
        '',
      ].join('\n'),
    );
  }
  p.finalize();
  await done;
}

function vmHwmMb(pid: number | null): number {
  if (pid === null) return NaN;
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

export async function run(): Promise<BenchResult[]> {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID')))
    throw new Error('no production build: run `npx next build` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-bench-archive-'));
  const archive = path.join(dir, 'bug-report.tar.gz');
  await writeArchive(archive);
  const meshdx = path.join(root, 'bin', 'meshdx.mjs');
  // the CLI bundle is built once, before the measurement
  spawnSync(process.execPath, [meshdx, '--help'], { cwd: root, stdio: 'ignore' });
  const port = await freePort();
  const dataDir = path.join(dir, 'data');
  const t0 = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [meshdx, 'open', archive, '--port', String(port), '--no-live', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], detached: true },
  );
  try {
    let rows = 0;
    let measured = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`meshdx open exited with ${child.exitCode}`);
      const r = await fetch(`http://127.0.0.1:${port}/api/proxies/fleet`).catch(() => null);
      if (r?.ok) {
        const body = (await r.json()) as { totals: { proxies: number; reachable: number } };
        rows = body.totals.proxies;
        measured = body.totals.reachable;
        break;
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    const took = ms(t0);
    const kubeconfig = fs.readdirSync(dataDir).find((f) => f.endsWith('.kubeconfig'));
    const server = kubeconfig
      ? /server: (http:\/\/\S+)/.exec(fs.readFileSync(path.join(dataDir, kubeconfig), 'utf8'))?.[1]
      : undefined;
    const archiveRss = vmHwmMb(server ? listenerPid(Number(new URL(server).port)) : null);
    const nextRss = vmHwmMb(listenerPid(port));
    const size = fs.statSync(archive).size;
    return [
      {
        name: 'archive.open-2000-proxies-first-view',
        value: Math.round(took),
        unit: 'ms',
        target: 10_000,
        note: `${rows} proxies in the fleet, ${measured} read from the archive; archive ${Math.round(size / 1024 / 1024)} MB; load average ${os.loadavg()[0]?.toFixed(1)}`,
      },
      {
        name: 'archive.open-2000-proxies-peak-rss',
        value: archiveRss + nextRss,
        unit: 'MB',
        target: 1_000,
        note: `archive server ${archiveRss} MB + dashboard ${nextRss} MB`,
      },
    ];
  } finally {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
