import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import type { FindingsReport } from '../../lib/api/findings';
import { FindingsReportSchema } from '../../lib/api/findings';
import type { Service } from '../../lib/kube/types';
import { PROTOCOL_CATALOG } from '../../lib/protocol/codes';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { getFindings, getWholeFindings } from '../../server/screens/findings/findings';
import { resetRegistry } from '../../server/runtime/registry';

let sim: RunningSimulator;
let dir: string;
let report: FindingsReport;
const saved = process.env.MESHDX_KUBECONFIG;

/** A sniffed port in front of MySQL (the scenario's orders-db sits on 3306, which Istio sets to TCP). */
const legacyDb: Service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'orders-db-legacy', namespace: 'ports' },
  spec: { selector: { app: 'orders-db' }, ports: [{ name: 'db', port: 13306, targetPort: 3306 }] },
};

/** Two sniffed ports on one Service: two findings, one per port. */
const twoBadPorts: Service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'legacy-two', namespace: 'ports' },
  spec: {
    selector: { app: 'legacy-two' },
    ports: [
      { port: 8081, targetPort: 8081 },
      { name: 'admin', port: 9001, targetPort: 9001 },
    ],
  },
};

/** A gateway Service as Istio's charts label it: istioctl skips its ports (status-port). */
const gatewaySvc: Service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'istio-ingressgateway',
    namespace: 'ports',
    labels: { istio: 'ingressgateway', app: 'istio-ingressgateway' },
  },
  spec: {
    selector: { istio: 'ingressgateway' },
    ports: [{ name: 'status-port', port: 15021, targetPort: 15021 }],
  },
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-protocol-'));
  sim = await startSimulator({
    scenario: 'port-naming',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  sim.store.upsert('services', legacyDb);
  sim.store.upsert('services', twoBadPorts);
  sim.store.upsert('services', gatewaySvc);
  const kc = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kc, sim.kubeconfigYaml);
  process.env.MESHDX_KUBECONFIG = kc;
  resetRegistry();
  report = await getWholeFindings(asMeshdx(null));
}, 30_000);

afterAll(async () => {
  resetRegistry();
  if (saved === undefined) delete process.env.MESHDX_KUBECONFIG;
  else process.env.MESHDX_KUBECONFIG = saved;
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const inPorts = (code: string) =>
  report.findings.filter((f) => f.code === code && f.subject.namespace === 'ports');
const names = (code: string) =>
  inPorts(code)
    .map((f) => f.subject.name)
    .sort();

describe('protocol findings on the port-naming scenario, through the real client', () => {
  it('is a valid report that carries the protocol catalog and its sources', () => {
    expect(FindingsReportSchema.safeParse(report).success).toBe(true);
    for (const c of PROTOCOL_CATALOG) expect(report.catalog.map((x) => x.code)).toContain(c.code);
    expect(report.sources?.find((s) => s.name === 'pods')?.ok).toBe(true);
    const logSources = report.sources?.filter((s) => s.name.startsWith('logs ports/')) ?? [];
    expect(logSources.length).toBeGreaterThan(0);
    expect(logSources.every((s) => s.ok)).toBe(true);
  });

  it('IST0118 for the web, 8080 and foo-http ports, not for http-web or appProtocol grpc', () => {
    expect(names('IST0118')).toEqual([
      'ledger-db',
      'legacy-two',
      'legacy-two',
      'numbers',
      'orders-db-legacy',
      'suffix-wrong',
      'web-legacy',
    ]);
    const legacy = inPorts('IST0118').find((f) => f.subject.name === 'web-legacy');
    expect(legacy?.evidence).toMatchObject({ portName: 'web', port: 80, targetPort: '8080' });
  });

  it('MDX0502 for MySQL behind a sniffed port, MDX0503 for the undeclared 3306', () => {
    expect(names('MDX0502')).toEqual(['ledger-db', 'orders-db-legacy']);
    expect(inPorts('MDX0502')[0]?.severity).toBe('error');
    expect(names('MDX0503')).toEqual(['orders-db']);
  });

  it('MDX0504 (and IST0137) for the multiplexed mux targetPort', () => {
    // orders-db too: the added legacy Service (sniffed) and orders-db (TCP) both reach 3306
    expect(names('MDX0504')).toEqual(['mux', 'orders-db']);
    const mux = inPorts('MDX0504').find((f) => f.subject.name === 'mux');
    expect(mux?.evidence).toMatchObject({ targetPort: '8080', protocols: 'HTTP,TCP' });
    const db = inPorts('MDX0504').find((f) => f.subject.name === 'orders-db');
    expect(db?.evidence).toMatchObject({ targetPort: '3306', protocols: 'TCP,auto' });
    expect(names('IST0137')).toEqual(['mux', 'orders-db']);
  });

  it('MDX0505 for the opted-out probe, MDX0506 with decoded originals for rewritten ones', () => {
    expect(names('MDX0505')).toEqual(['mux']);
    expect(names('MDX0506')).toEqual(['numbers', 'web-good', 'web-legacy']);
    for (const f of inPorts('MDX0506')) {
      expect(f.evidence.original).toBe('HTTP GET :8080/readyz');
    }
  });

  it('MDX0507 for the external host fetcher calls through PassthroughCluster', () => {
    const ext = inPorts('MDX0507');
    expect(ext.map((f) => f.subject.name)).toEqual(['fetcher']);
    expect(ext[0]?.evidence).toMatchObject({ host: 'api.exchange-rates.example.com', port: 80 });
    expect(ext[0]?.fix?.yaml).toContain('- api.exchange-rates.example.com');
  });
});

describe('unreadable proxy logs', () => {
  it('are listed as failed sources, never dropped silently', async () => {
    sim.faults.latencyMs = 300;
    try {
      const r = await getFindings(asMeshdx(null), { logTimeoutMs: 100, maxLogPods: 3 });
      const logs = r.sources?.filter((s) => s.name.startsWith('logs ')) ?? [];
      expect(logs).toHaveLength(3);
      expect(logs.every((s) => !s.ok && s.detail.length > 0)).toBe(true);
      expect(r.sources?.some((s) => s.detail.startsWith('read 3 of '))).toBe(true);
      expect(r.findings.some((f) => f.code === 'MDX0507')).toBe(false);
    } finally {
      sim.faults.latencyMs = 0;
    }
  });
});

describe('finding identity in the live report', () => {
  it('reports each sniffed port of one Service, and no port of the gateway Service', () => {
    const two = inPorts('IST0118').filter((f) => f.subject.name === 'legacy-two');
    expect(two.map((f) => f.part?.name).sort()).toEqual(['8081/TCP', '9001/TCP']);
    expect(inPorts('IST0118').some((f) => f.subject.name === 'istio-ingressgateway')).toBe(false);
  });
});
