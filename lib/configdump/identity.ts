import { isObject, objectField, stringField } from './fields';
import { sectionsOf } from './parse';
import type { ConfigDump, ProxyIdentity } from './types';

const EMPTY: ProxyIdentity = {
  id: null,
  proxyType: null,
  ip: null,
  podName: null,
  podNamespace: null,
  domain: null,
  cluster: null,
  istioVersion: null,
};

/**
 * Splits an Istio node id `TYPE~IP~POD.NAMESPACE~DOMAIN`. Namespaces are DNS labels (no dots),
 * so the pod/namespace split is at the last dot.
 */
export function parseNodeId(
  id: string,
): Pick<ProxyIdentity, 'proxyType' | 'ip' | 'podName' | 'podNamespace' | 'domain'> {
  const parts = id.split('~');
  if (parts.length !== 4) {
    return { proxyType: null, ip: null, podName: null, podNamespace: null, domain: null };
  }
  const [proxyType = '', ip = '', podId = '', domain = ''] = parts;
  const dot = podId.lastIndexOf('.');
  return {
    proxyType: proxyType || null,
    ip: ip || null,
    podName: (dot > 0 ? podId.slice(0, dot) : podId) || null,
    podNamespace: dot > 0 ? podId.slice(dot + 1) || null : null,
    domain: domain || null,
  };
}

function metaString(meta: Record<string, unknown> | null, key: string): string | null {
  const v = meta?.[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Proxy identity from the BootstrapConfigDump's node; all null when there is no bootstrap. */
export function proxyIdentity(dump: ConfigDump): ProxyIdentity {
  const section = sectionsOf(dump, 'bootstrap')[0];
  const node = objectField(objectField(section?.body, 'bootstrap'), 'node');
  if (!node) return { ...EMPTY };
  const id = stringField(node, 'id');
  const rawMeta = node.metadata;
  const meta = isObject(rawMeta) ? rawMeta : null;
  const fromId = id ? parseNodeId(id) : parseNodeId('');
  return {
    id,
    ...fromId,
    podName: fromId.podName ?? metaString(meta, 'NAME'),
    podNamespace: fromId.podNamespace ?? metaString(meta, 'NAMESPACE'),
    cluster: stringField(node, 'cluster'),
    istioVersion: metaString(meta, 'ISTIO_VERSION'),
  };
}
