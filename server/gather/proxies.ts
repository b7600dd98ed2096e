/**
 * The proxies' and istiod's files of a gathered archive, read the way the runtime reads them:
 * Envoy admin (and ztunnel's) over pods/portforward, istiod's debug port over port-forward, the
 * proxy's log over pods/log, every call within meshdx's request budget. A pod whose admin does
 * not answer is named as unreachable with the reason; its files are not written empty.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../../lib/kube/types';
import { configDumpWithoutSecrets } from '../../lib/gather/config-dump';
import type { GatherSkipped, GatherUnreachable } from '../../lib/gather/extras';
import {
  ISTIOD_DEBUG_FILES,
  ISTIOD_LOG_FILE,
  ISTIOD_METRICS_FILE,
  PROXY_ADMIN_FILES,
  PROXY_LOG_FILE,
  ZTUNNEL_ADMIN_FILES,
  istiodEntry,
  joinedProxyLog,
  proxyEntry,
} from '../../lib/archive/layout';
import { failureReason } from '../envoy/reason';
import { isKubeError } from '../kube/errors';
import { podLogs } from '../kube/logs';
import { ENVOY_ADMIN_PORT, portForwardGetBytes, type BytesResponse } from '../kube/podports';
import type { KubeTransport } from '../kube/transport';
import type { ArchiveOut } from './tar-out';

/** What the capture of one pod adds to the manifest. */
export interface PodCapture {
  unreachable: GatherUnreachable[];
  skipped: GatherSkipped[];
  /** Proxy versions seen (server_info), for the `versions` file. */
  versions: string[];
  /** Config dumps whose SecretsConfigDump was left out. */
  secretsDropped: number;
}

export interface CaptureContext {
  t: KubeTransport;
  kc: KubeConfig;
  out: ArchiveOut;
  /** Log lines from this time on (RFC 3339). */
  sinceTime: string;
  timeoutMs: number;
  capture: PodCapture;
}

const ISTIOD_PORT = 15014;

/** An answer that is no file: the pod did not answer, or its port said no. */
function unreachableError(e: unknown): boolean {
  return !(isKubeError(e) && e.kind === 'http' && e.status !== 502 && e.status !== 503);
}

function serverVersion(body: Buffer): string | null {
  try {
    const v = (JSON.parse(body.toString('utf8')) as { version?: unknown }).version;
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/**
 * One proxy pod's folder: its admin files, then its log. The first admin call that gets no
 * answer makes the pod unreachable and ends its admin reads (the others would wait as long).
 */
export async function captureProxy(
  c: CaptureContext,
  pod: Pod,
  kind: 'envoy' | 'ztunnel',
): Promise<void> {
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name;
  const files = kind === 'ztunnel' ? ZTUNNEL_ADMIN_FILES : PROXY_ADMIN_FILES;
  const what = kind === 'ztunnel' ? 'ztunnel admin' : 'envoy admin';
  for (const f of files) {
    let res: BytesResponse;
    try {
      res = await portForwardGetBytes(c.kc, ns, name, ENVOY_ADMIN_PORT, f.path, {
        timeoutMs: c.timeoutMs,
      });
    } catch (e) {
      if (unreachableError(e)) {
        c.capture.unreachable.push({ namespace: ns, pod: name, what, reason: failureReason(e) });
        break;
      }
      c.capture.skipped.push({ part: proxyEntry(ns, name, f.file), reason: failureReason(e) });
      continue;
    }
    if (res.status !== 200) {
      c.capture.skipped.push({
        part: proxyEntry(ns, name, f.file),
        reason: `${what} answered ${res.status} to ${f.path}: ${res.bytes.toString('utf8', 0, 200).trim()}`,
      });
      continue;
    }
    let body = res.bytes;
    if (f.file === 'config_dump?include_eds') {
      const clean = configDumpWithoutSecrets(body.toString('utf8'));
      if ('error' in clean) {
        c.capture.skipped.push({ part: proxyEntry(ns, name, f.file), reason: clean.error });
        continue;
      }
      body = Buffer.from(clean.text, 'utf8');
      if (clean.droppedSecrets) c.capture.secretsDropped++;
    }
    if (f.file === 'server_info') {
      const v = serverVersion(body);
      if (v) c.capture.versions.push(v);
    }
    if (body.length > 0) await c.out.add(proxyEntry(ns, name, f.file), body);
  }
  await captureLog(c, pod, 'istio-proxy', proxyEntry(ns, name, PROXY_LOG_FILE));
}

/** A container's log of the window (and its previous run's when it restarted), or why not. */
async function captureLog(c: CaptureContext, pod: Pod, container: string, entry: string) {
  const ns = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name;
  const restarted = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ].some((s) => s.name === container && (s.restartCount ?? 0) > 0);
  try {
    const current = await podLogs(c.t, ns, name, container, { sinceTime: c.sinceTime });
    let previous: string | null = null;
    if (restarted) {
      try {
        previous = await podLogs(c.t, ns, name, container, {
          sinceTime: c.sinceTime,
          previous: true,
        });
      } catch (e) {
        c.capture.skipped.push({
          part: `${entry} (previous container)`,
          reason: failureReason(e),
        });
      }
    }
    const text = joinedProxyLog(current, previous);
    if (text.trim() === '')
      c.capture.skipped.push({ part: entry, reason: 'the container logged nothing in the window' });
    else await c.out.add(entry, text);
  } catch (e) {
    c.capture.unreachable.push({
      namespace: ns,
      pod: name,
      what: `${container} log`,
      reason: failureReason(e),
    });
  }
}

/** One istiod replica's folder: its debug endpoints, then its discovery log. */
export async function captureIstiod(c: CaptureContext, pod: Pod): Promise<void> {
  const ns = pod.metadata.namespace ?? 'istio-system';
  const name = pod.metadata.name;
  for (const file of [...ISTIOD_DEBUG_FILES, ISTIOD_METRICS_FILE]) {
    let res: BytesResponse;
    try {
      res = await portForwardGetBytes(c.kc, ns, name, ISTIOD_PORT, `/${file}`, {
        timeoutMs: c.timeoutMs,
      });
    } catch (e) {
      if (unreachableError(e)) {
        c.capture.unreachable.push({
          namespace: ns,
          pod: name,
          what: 'istiod debug',
          reason: failureReason(e),
        });
        break;
      }
      c.capture.skipped.push({ part: istiodEntry(ns, name, file), reason: failureReason(e) });
      continue;
    }
    if (res.status !== 200 || res.bytes.length === 0) {
      c.capture.skipped.push({
        part: istiodEntry(ns, name, file),
        reason:
          res.status === 200
            ? `istiod answered /${file} with nothing`
            : `istiod answered ${res.status} to /${file} (this istiod does not serve it)`,
      });
      continue;
    }
    await c.out.add(istiodEntry(ns, name, file), res.bytes);
  }
  await captureLog(c, pod, 'discovery', istiodEntry(ns, name, ISTIOD_LOG_FILE));
}
