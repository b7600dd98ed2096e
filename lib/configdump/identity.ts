import { isObject, objectField, stringField } from './fields';
import { sectionsOf } from './parse';
import type { ConfigDump, ProxyIdentity } from './types';
import { tryParseNodeId } from '../refs/proxy-ref';

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

/** The identity parts of a node id (lib/refs/proxy-ref.ts); all null when it is not one. */
function fromNodeId(
  id: string | null,
): Pick<ProxyIdentity, 'proxyType' | 'ip' | 'podName' | 'podNamespace' | 'domain'> {
  const n = id === null ? null : tryParseNodeId(id);
  return {
    proxyType: n?.type ?? null,
    ip: n?.ip ?? null,
    podName: n?.pod.name ?? null,
    podNamespace: n?.pod.namespace ?? null,
    domain: n?.domain ?? null,
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
  const fromId = fromNodeId(id);
  return {
    id,
    ...fromId,
    podName: fromId.podName ?? metaString(meta, 'NAME'),
    podNamespace: fromId.podNamespace ?? metaString(meta, 'NAMESPACE'),
    cluster: stringField(node, 'cluster'),
    istioVersion: metaString(meta, 'ISTIO_VERSION'),
  };
}
