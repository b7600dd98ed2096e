/**
 * An ambient L7 AuthorizationPolicy (an HTTP method, bound by selector to `app: api`): what
 * ztunnel cannot enforce, MDX0601. Applied with kubectl by the findings-follow test, e2e spec and
 * benchmark.
 */
export function l7PolicyYaml(name: string, namespace = 'mesh-ambient'): string {
  return `apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  selector:
    matchLabels:
      app: api
  action: ALLOW
  rules:
  - to:
    - operation:
        methods: ["GET"]
`;
}
