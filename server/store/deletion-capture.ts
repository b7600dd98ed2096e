import type { Pod } from '../../lib/kube/types';
import { proxyContainer } from '../../lib/dataplane/proxy-container';
import { readFailures } from '../../lib/incidents/read-failures';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import type { ObservedEvent } from '../kube/listwatch';
import type { HistoryStore } from './history-store';

/** Reads a container's log (pods/log), bounded. */
export type ContainerLogReader = (
  namespace: string,
  pod: string,
  container: string,
  opts: { sinceTime?: string; tailLines?: number; limitBytes: number },
) => Promise<string>;

export interface DeletionCaptureOptions {
  store: HistoryStore;
  readLog: ContainerLogReader;
  /** The cluster's clock. */
  now: () => Date;
  /** Logs read at once (default 4). */
  concurrency?: number;
  /** Bytes read of one log (default 4 MiB). */
  limitBytes?: number;
  /** Pods waiting beyond this are not read, and counted (default 500). */
  maxQueued?: number;
}

export interface DeletionCaptureStatus {
  /** Meshed pods whose deletion started while meshdx watched. */
  seen: number;
  /** Their proxy logs read and recorded. */
  read: number;
  /** Failing requests those reads added to the store. */
  failures: number;
  /** Logs that could not be read (the container had gone, or the API refused). */
  failed: number;
  /** Pods not read because too many were waiting. */
  dropped: number;
  lastError: string | null;
}

/** A first read without a watermark takes the log's last lines, as the view does. */
const TAIL_LINES = 20_000;
/** A later read starts a little before the watermark (the kubelet's sinceTime is per second). */
const OVERLAP_MS = 5_000;

/**
 * When the watch sees a meshed pod's deletion start, reads its proxy log once before the
 * container goes and records its failing requests (read 'deletion'): a client's evidence
 * outlives its pod. Reads are bounded in number at once, in bytes, and in how many may wait.
 */
export function deletionCapture(opts: DeletionCaptureOptions) {
  const { store } = opts;
  const concurrency = opts.concurrency ?? 4;
  const limitBytes = opts.limitBytes ?? 4 * 1024 * 1024;
  const maxQueued = opts.maxQueued ?? 500;
  const status: DeletionCaptureStatus = {
    seen: 0,
    read: 0,
    failures: 0,
    failed: 0,
    dropped: 0,
    lastError: null,
  };
  const handled = new Set<string>();
  const queue: Pod[] = [];
  let running = 0;
  let stopped = false;

  async function capture(pod: Pod): Promise<void> {
    const ns = pod.metadata.namespace ?? 'default';
    const proxy = podKeyOfObject(pod);
    const container = proxyContainer(pod)?.name ?? 'istio-proxy';
    const mark = store.failures.watermark(proxy);
    const uid = pod.metadata.uid ?? null;
    const same = mark !== null && (mark.proxyUid === null || uid === null || mark.proxyUid === uid);
    const since = same ? mark.readTo - OVERLAP_MS : null;
    const startedAt = opts.now().getTime();
    try {
      const text = await opts.readLog(ns, pod.metadata.name, container, {
        ...(since !== null
          ? { sinceTime: new Date(since).toISOString() }
          : { tailLines: TAIL_LINES }),
        limitBytes,
      });
      if (stopped) return;
      const r = readFailures({ source: proxy, clientPod: proxy, text }, 'deletion', uid, store);
      const res = store.failures.record(r.failures, opts.now().getTime());
      const cut = Buffer.byteLength(text) >= limitBytes;
      store.failures.markRead({
        proxy,
        proxyUid: uid,
        readTo: cut ? (r.newest ?? startedAt) : startedAt,
        readFrom:
          since !== null ? since : r.source.lines >= TAIL_LINES ? (r.oldest ?? startedAt) : null,
        readAt: startedAt,
        read: 'deletion',
      });
      status.read++;
      status.failures += res.added;
    } catch (e) {
      status.failed++;
      status.lastError = `${proxy}: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  function pump(): void {
    while (!stopped && running < concurrency && queue.length > 0) {
      const pod = queue.shift() as Pod;
      running++;
      void capture(pod).finally(() => {
        running--;
        pump();
      });
    }
  }

  return {
    status: (): DeletionCaptureStatus => ({ ...status }),
    /** Feeds one watched pod event. */
    onEvent(ev: ObservedEvent<Pod>): void {
      if (stopped) return;
      const pod = ev.object;
      const key = pod.metadata.uid ?? podKeyOfObject(pod);
      if (ev.type === 'DELETED') {
        handled.delete(key);
        return;
      }
      if (!pod.metadata.deletionTimestamp || handled.has(key) || !proxyContainer(pod)) return;
      handled.add(key);
      status.seen++;
      if (queue.length >= maxQueued) {
        status.dropped++;
        return;
      }
      queue.push(pod);
      pump();
    },
    stop(): void {
      stopped = true;
      queue.length = 0;
    },
    /** Resolves once nothing is waiting or being read (tests). */
    async idle(): Promise<void> {
      while (running > 0 || queue.length > 0) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

export type DeletionCapture = ReturnType<typeof deletionCapture>;
