/**
 * IST0134 ServiceEntryAddressesRequired, as istioctl's serviceentry.ProtocolAddressesAnalyzer
 * reports it: a ServiceEntry without `addresses` and without addresses allocated in its status,
 * once per port whose protocol is TCP (any case) or unset, unless the mesh auto-allocates
 * virtual IPs: the mesh config's defaultConfig.proxyMetadata sets ISTIO_META_DNS_CAPTURE to
 * "true" and ISTIO_META_DNS_AUTO_ALLOCATE or PILOT_ENABLE_IP_AUTOALLOCATE to "true".
 *
 * The mesh config is the rule context's (a mesh config file given beside the objects, else the
 * `istio` ConfigMap's); without one the mesh is Istio's default, which allocates nothing. `addresses: []` is no address (istioctl
 * reads an empty list as none); an entry whose addresses or ports are not lists is not judged.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, objects, specOf, stringMap, strings, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  addressesRequired: {
    code: 'IST0134',
    severity: 'warning',
    title: 'ServiceEntryAddressesRequired',
    description:
      'A ServiceEntry serves a TCP port (or one without protocol) with no virtual IP (spec.addresses) and the mesh does not allocate one: sidecars cannot tell its traffic from other TCP traffic to the same port, so the entry takes the whole port (0.0.0.0:port) and either captures connections meant for other destinations on that port or loses them to them.',
    istio: {
      since: '1.0',
      why: "ServiceEntry addresses are Istio 1.0's (DNS auto-allocation, ISTIO_META_DNS_AUTO_ALLOCATE, from 1.12); istioctl analyze reports IST0134 since 1.9.",
    },
  },
});

/** Whether the mesh gives ServiceEntries without addresses a virtual IP (DNS capture + auto-allocation). */
function autoAllocates(mesh: Readonly<Raw> | null): boolean {
  const meta = stringMap(obj(mesh?.defaultConfig)?.proxyMetadata);
  if (meta.ISTIO_META_DNS_CAPTURE !== 'true') return false;
  return (
    meta.ISTIO_META_DNS_AUTO_ALLOCATE === 'true' || meta.PILOT_ENABLE_IP_AUTOALLOCATE === 'true'
  );
}

/** Addresses the controller allocated (status.addresses). */
const allocated = (se: KubeObject): number =>
  list(obj((se as KubeObject & { status?: unknown }).status)?.addresses).length;

/** The protocol as the finding shows it when the port's needs an address, else null. */
function needsAddress(protocol: unknown): string | null {
  if (protocol === undefined || protocol === null || protocol === '') return '(unset)';
  return typeof protocol === 'string' && protocol.toLowerCase() === 'tcp' ? protocol : null;
}

function findings(se: KubeObject): Finding[] {
  const spec = specOf(se);
  if (spec === null) return [];
  const addresses = spec.addresses;
  if (addresses !== undefined && addresses !== null && !Array.isArray(addresses)) return [];
  if (list(addresses).length > 0 || allocated(se) > 0) return [];
  if (!Array.isArray(spec.ports)) return [];
  const out: Finding[] = [];
  const seen = new Set<string>();
  objects(spec.ports).forEach((p, i) => {
    const protocol = needsAddress(p.protocol);
    if (protocol === null) return;
    const number = typeof p.number === 'number' ? String(p.number) : `ports[${i}]`;
    const part = seen.has(number) ? `${number} (ports[${i}])` : number;
    seen.add(number);
    out.push({
      code: CATALOG.code.addressesRequired,
      severity: CATALOG.byKey.addressesRequired.severity,
      subject: { kind: 'ServiceEntry', namespace: se.metadata.namespace, name: se.metadata.name },
      part: { kind: 'port', name: part },
      evidence: {
        port: typeof p.number === 'number' ? p.number : null,
        protocol,
        hosts: strings(spec.hosts).join(', '),
      },
      fix: {
        why: 'Give the entry a virtual IP (spec.addresses), or the port its application protocol (HTTP, HTTPS, TLS...), or let the mesh allocate addresses (proxyMetadata ISTIO_META_DNS_CAPTURE and ISTIO_META_DNS_AUTO_ALLOCATE "true").',
      },
    });
  });
  return out;
}

export const SERVICE_ENTRY_ADDRESSES = defineRule({
  id: 'service-entry-addresses',
  analyzer: 'serviceentry.ProtocolAddressesAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0134', kinds: ['ServiceEntry'] }],
  reads: ['ServiceEntry', 'ConfigMap'],
  check(ctx) {
    if (autoAllocates(ctx.meshConfig)) return [];
    return ctx.objects('ServiceEntry').flatMap(findings);
  },
});
