import { parseAddress } from '../accesslog/address';
import type { AccessLogRecord } from '../accesslog/types';
import type { Finding, FindingSubject } from '../findings/types';
import { CODES } from './codes';
import { workloadKey } from '../refs/workload-ref';

/** The access-log records of one client workload's proxies. */
export interface ClientRecords {
  client: FindingSubject;
  records: readonly AccessLogRecord[];
}

export interface ExternalCall {
  client: FindingSubject;
  /** Host name from :authority or SNI, or the IP when only that is known. */
  host: string;
  /** True when only an IP is known (TCP without SNI). */
  ipOnly: boolean;
  port: number | null;
  protocol: 'HTTP' | 'TLS' | 'TCP';
  cluster: 'PassthroughCluster' | 'BlackHoleCluster';
  count: number;
  addresses: string[];
  firstSeen: string | null;
  lastSeen: string | null;
}

const OUT_CLUSTERS: ReadonlySet<string> = new Set(['PassthroughCluster', 'BlackHoleCluster']);

function stripPort(authority: string): string {
  if (authority.startsWith('[')) return authority.slice(1, authority.indexOf(']'));
  const i = authority.lastIndexOf(':');
  return i > 0 && /^\d+$/.test(authority.slice(i + 1)) ? authority.slice(0, i) : authority;
}

function callOf(
  r: AccessLogRecord,
): Omit<ExternalCall, 'client' | 'count' | 'firstSeen' | 'lastSeen'> | null {
  const cluster = r.upstreamCluster;
  if (cluster === null || !OUT_CLUSTERS.has(cluster)) return null;
  const dst = parseAddress(r.upstreamHost) ?? parseAddress(r.downstreamLocalAddress);
  const port = dst?.port ?? null;
  const ip = dst?.ip ?? null;
  const authority = r.authority === null || r.tcp ? null : stripPort(r.authority);
  const sni = r.requestedServerName;
  const host = authority ?? sni ?? ip;
  if (host === null) return null;
  return {
    host: host.toLowerCase(),
    ipOnly: authority === null && sni === null,
    port,
    protocol: authority !== null ? 'HTTP' : sni !== null ? 'TLS' : 'TCP',
    cluster: cluster as ExternalCall['cluster'],
    addresses: ip === null ? [] : [ip],
  };
}

/** Outbound calls that left the mesh registry (PassthroughCluster / BlackHoleCluster), grouped. */
export function externalCalls(input: readonly ClientRecords[]): ExternalCall[] {
  const out = new Map<string, ExternalCall>();
  for (const { client, records } of input) {
    for (const r of records) {
      const c = callOf(r);
      if (c === null) continue;
      const who = workloadKey({
        namespace: client.namespace ?? '',
        kind: client.kind,
        name: client.name,
      });
      const key = `${who}|${c.host}|${c.port ?? ''}|${c.cluster}`;
      const t = r.startTime;
      const cur = out.get(key);
      if (cur === undefined) {
        out.set(key, { ...c, client, count: 1, firstSeen: t, lastSeen: t });
        continue;
      }
      cur.count += 1;
      for (const a of c.addresses) if (!cur.addresses.includes(a)) cur.addresses.push(a);
      if (t !== null && (cur.firstSeen === null || t < cur.firstSeen)) cur.firstSeen = t;
      if (t !== null && (cur.lastSeen === null || t > cur.lastSeen)) cur.lastSeen = t;
    }
  }
  return [...out.values()];
}

const SE_PROTOCOL = { HTTP: 'HTTP', TLS: 'TLS', TCP: 'TCP' } as const;

/** A ServiceEntry that registers the external host (MESH_EXTERNAL), in the client's namespace. */
export function serviceEntryYaml(c: ExternalCall): string {
  const port = c.port ?? (c.protocol === 'HTTP' ? 80 : 443);
  const proto = SE_PROTOCOL[c.protocol];
  const safe = c.host
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  const lines = [
    'apiVersion: networking.istio.io/v1',
    'kind: ServiceEntry',
    'metadata:',
    `  name: external-${safe || 'host'}`,
    `  namespace: ${c.client.namespace ?? 'default'}`,
    'spec:',
    '  hosts:',
  ];
  if (c.ipOnly) {
    lines.push(
      `  - ${safe}.external.invalid  # only the IP is known: replace with the real host name`,
    );
    lines.push('  addresses:', ...c.addresses.map((a) => `  - ${a}/32`));
  } else {
    lines.push(`  - ${c.host}`);
  }
  lines.push(
    '  location: MESH_EXTERNAL',
    `  resolution: ${c.ipOnly ? 'NONE' : 'DNS'}`,
    '  ports:',
    `  - number: ${port}`,
    `    name: ${proto.toLowerCase()}-${port}`,
    `    protocol: ${proto}`,
  );
  return `${lines.join('\n')}\n`;
}

/** One finding per client workload, external host and port. */
export function externalHostFindings(input: readonly ClientRecords[]): Finding[] {
  return externalCalls(input).map((c) => {
    const blocked = c.cluster === 'BlackHoleCluster';
    return {
      code: blocked ? CODES.externalBlackHole : CODES.externalPassthrough,
      severity: blocked ? 'error' : 'warning',
      subject: c.client,
      part: { kind: 'host', name: `${c.host}:${c.port ?? '*'}` },
      evidence: {
        host: c.host,
        port: c.port,
        protocol: c.protocol,
        cluster: c.cluster,
        requests: c.count,
        addresses: c.addresses.join(','),
        firstSeen: c.firstSeen,
        lastSeen: c.lastSeen,
      },
      fix: {
        why: blocked
          ? 'REGISTRY_ONLY drops calls to unregistered hosts: register the host with a ServiceEntry.'
          : 'Register the host so its traffic gets a cluster, metrics by host and policies, and keeps working under REGISTRY_ONLY.',
        yaml: serviceEntryYaml(c),
      },
    } satisfies Finding;
  });
}
