/**
 * The default Sidecar a namespace (or, in the root namespace, the whole mesh) is offered when it
 * has none: its proxies keep their own namespace and the control plane's. The MDX0301 fixes
 * that have no measured egress (the mesh-wide group fix, the inventory's fallback) write this.
 */
import { scopedHost } from '../refs/object-ref';
export function defaultSidecarYaml(namespace: string, istioNamespace: string): string {
  return (
    'apiVersion: networking.istio.io/v1\n' +
    'kind: Sidecar\n' +
    'metadata:\n' +
    '  name: default\n' +
    `  namespace: ${namespace}\n` +
    'spec:\n' +
    '  egress:\n' +
    '  - hosts:\n' +
    '    - "./*"\n' +
    `    - "${scopedHost(istioNamespace, '*')}"\n`
  );
}
