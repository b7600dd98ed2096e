/**
 * Which proxy sent an OTLP access-log record. Envoy's OpenTelemetry access logger as Istio
 * configures it (`envoyOtelAls`) sets `disable_builtin_labels` and no resource attributes, so
 * the record itself names no pod: the receiver knows the sender by the connection's peer
 * address (the sidecar's pod IP). Behind a Collector the peer is the Collector, and the pod
 * comes from what the pipeline added: Kubernetes semantic-convention attributes (a Collector's
 * k8sattributes processor), the `pod`/`namespace` labels of Istio's documented logFormat
 * (`%ENVIRONMENT(POD_NAME)%`), or Envoy's builtin `node_name` (the node id) when enabled.
 */
import { tryParseNodeId } from '../refs/proxy-ref';
import type { PodRef } from '../refs/pod-ref';
import { attributeText } from './values';

const POD_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['k8s.pod.name', 'k8s.namespace.name'],
  ['pod', 'namespace'],
  ['pod_name', 'pod_namespace'],
];

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The pod named by record attributes first, then resource attributes; null when none. */
export function podFromAttributes(
  record: Record<string, unknown>,
  resource: Record<string, unknown>,
): PodRef | null {
  for (const attrs of [record, resource]) {
    for (const [podKey, nsKey] of POD_KEYS) {
      const name = attributeText(attrs, podKey);
      const namespace = attributeText(attrs, nsKey);
      if (name && namespace && NAME.test(name) && NAME.test(namespace)) return { namespace, name };
    }
    const node = attributeText(attrs, 'node_name');
    const id = node ? tryParseNodeId(node) : null;
    if (id) return id.pod;
  }
  return null;
}
