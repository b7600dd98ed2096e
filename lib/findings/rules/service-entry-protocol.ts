/**
 * IST0177 ConflictingServiceEntryProtocol, as istioctl's
 * serviceentry.ConflictingServiceEntryProtocolAnalyzer reports it: ServiceEntries that a
 * namespace sees together declare one host and port with different protocols (compared without
 * case; an unset protocol is a protocol of its own, as istioctl counts it). Each entry is
 * reported once, on the first conflict it takes part in (by scope, host and port).
 *
 * What a namespace sees is the entry's exportTo as istioctl reads it: none or `*` is every
 * namespace, `.` the entry's own, any other value that namespace; an entry exported to every
 * namespace conflicts with those of any scope. The mesh's defaultServiceExportTo is not read
 * (istioctl does not either). Hosts are compared as written (no wildcard matching).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { list, objects, specOf, str, strings } from './raw';

const CATALOG = defineCatalog('config', {
  conflictingProtocol: {
    code: 'IST0177',
    severity: 'warning',
    title: 'ConflictingServiceEntryProtocol',
    description:
      'Several ServiceEntries seen by the same namespaces declare one host and port with different protocols (HTTP and HTTPS, say): a sidecar builds one listener and filter chain per host and port, so one protocol wins and clients of the others get the wrong handling on that port (plain HTTP sent to a TLS port, TLS parsed as HTTP).',
    istio: {
      since: '1.0',
      why: "ServiceEntry hosts and ports with protocols are Istio 1.0's; istioctl analyze reports IST0177 since 1.31. 1.0 is the earliest supported: no evidence of how older istiods chose between the protocols.",
    },
  },
});

const ALL = '*';

interface Entry {
  protocol: string;
  se: KubeObject;
  key: string;
}

/** The namespaces an entry is visible in, `*` for all (istioctl's exportToScopes). */
function scopes(exportTo: unknown, namespace: string): Set<string> {
  const values = strings(exportTo);
  if (list(exportTo).length === 0 || values.includes(ALL)) return new Set([ALL]);
  return new Set(values.map((e) => (e === '.' ? namespace : e)));
}

const indexKey = (scope: string, host: string, port: number): string =>
  JSON.stringify([scope, host, port]);

function portNumber(v: unknown): number | null {
  if (v === undefined || v === null) return 0;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

export const SERVICE_ENTRY_PROTOCOL = defineRule({
  id: 'service-entry-protocol',
  analyzer: 'serviceentry.ConflictingServiceEntryProtocolAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0177', kinds: ['ServiceEntry'] }],
  reads: ['ServiceEntry'],
  check(ctx) {
    const index = new Map<
      string,
      { scope: string; host: string; port: number; entries: Entry[] }
    >();
    for (const se of ctx.objects('ServiceEntry')) {
      const spec = specOf(se);
      if (spec === null) continue;
      const ns = se.metadata.namespace ?? 'default';
      const key = objectKey(ns, se.metadata.name);
      for (const scope of scopes(spec.exportTo, ns)) {
        for (const host of strings(spec.hosts)) {
          for (const p of objects(spec.ports)) {
            const port = portNumber(p.number);
            if (port === null) continue;
            const k = indexKey(scope, host, port);
            const slot = index.get(k) ?? { scope, host, port, entries: [] };
            slot.entries.push({ protocol: str(p.protocol) ?? '', se, key });
            index.set(k, slot);
          }
        }
      }
    }
    const reported = new Set<string>();
    const out: Finding[] = [];
    for (const k of [...index.keys()].sort()) {
      const slot = index.get(k);
      if (slot === undefined) continue;
      const entries =
        slot.scope === ALL
          ? slot.entries
          : [...slot.entries, ...(index.get(indexKey(ALL, slot.host, slot.port))?.entries ?? [])];
      const protocols = [...new Set(entries.map((e) => e.protocol.toUpperCase()))].sort();
      if (protocols.length < 2) continue;
      const names = [...new Set(entries.map((e) => e.key))].sort();
      for (const e of entries) {
        if (reported.has(e.key)) continue;
        reported.add(e.key);
        out.push({
          code: CATALOG.code.conflictingProtocol,
          severity: CATALOG.byKey.conflictingProtocol.severity,
          subject: {
            kind: 'ServiceEntry',
            namespace: e.se.metadata.namespace,
            name: e.se.metadata.name,
          },
          evidence: {
            host: slot.host,
            port: slot.port,
            protocols: protocols.map((p) => (p === '' ? '(unset)' : p)).join(', '),
            serviceEntries: names.join(', '),
            scope: slot.scope === ALL ? 'all namespaces' : slot.scope,
          },
          fix: {
            why: `Declare port ${slot.port} of ${slot.host} with one protocol in every ServiceEntry (or merge them), or narrow their exportTo so no namespace sees both.`,
          },
        });
      }
    }
    return out;
  },
});
