import type { Finding } from '../findings/types';
import type { Pod, Service } from '../kube/types';
import { CODES } from './codes';
import { portPatchYaml } from './ports';
import { protocolLabel, resolvePortProtocol } from './resolve';
import { hasProxy } from '../dataplane/proxy-container';
import { groupWorkloads, portChecksApplyTo, resolveTargetPort, selects } from './select';

interface PortUse {
  service: Service;
  port: number;
  portName: string;
  kubeProtocol: string;
  protocol: string;
  target: string;
}

function usesOf(pod: Pod, services: readonly Service[]): PortUse[] {
  const out: PortUse[] = [];
  // `services`: those of the pod's namespace (a Service selects pods of its own only, select.ts)
  for (const svc of services) {
    if (!selects(svc, pod) || !portChecksApplyTo(svc)) continue;
    for (const sp of svc.spec.ports ?? []) {
      const t = resolveTargetPort(sp, pod);
      out.push({
        service: svc,
        port: sp.port,
        portName: sp.name ?? '',
        kubeProtocol: (sp.protocol ?? 'TCP').toUpperCase(),
        protocol: protocolLabel(resolvePortProtocol(sp)),
        target: t.number === null ? t.written : String(t.number),
      });
    }
  }
  return out;
}

const describe = (u: PortUse) =>
  `${u.service.metadata.name}:${u.port}${u.portName ? `(${u.portName})` : ''}=${u.protocol}`;

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const l = m.get(k);
    if (l === undefined) m.set(k, [i]);
    else l.push(i);
  }
  return m;
}

/**
 * Per meshed workload, the Service ports that select it: different protocols on one pod port
 * (multiplexed, MDX0504), different port numbers on one targetPort (IST0137), and one port number
 * with different Kubernetes protocols across Services (IST0116).
 */
export function multiplexFindings(
  pods: readonly Pod[],
  services: readonly Service[],
  meshed: (p: Pod) => boolean = hasProxy,
): Finding[] {
  const out: Finding[] = [];
  const servicesByNamespace = groupBy(services, (s) => s.metadata.namespace ?? '');
  for (const w of groupWorkloads(pods.filter(meshed))) {
    const subject = { kind: w.kind, namespace: w.namespace, name: w.name };
    const uses = usesOf(w.pod, servicesByNamespace.get(w.pod.metadata.namespace ?? '') ?? []);
    for (const [target, list] of groupBy(uses, (u) => u.target)) {
      const protocols = [...new Set(list.map((u) => u.protocol))].sort();
      const ports = [...new Set(list.map((u) => u.port))].sort((a, b) => a - b);
      if (protocols.length > 1) {
        const servicePorts = list.map(describe).join(', ');
        const first = list.find((u) => u.protocol !== 'auto' && u.protocol !== 'TCP') ?? list[0];
        out.push({
          code: CODES.multiplexedPort,
          severity: 'error',
          subject,
          part: { kind: 'targetPort', name: target },
          evidence: {
            targetPort: target,
            protocols: protocols.join(','),
            servicePorts,
            pods: w.pods,
          },
          fix: {
            why: 'One pod port can carry one protocol: serve each protocol on its own container port, or declare the same protocol on every Service port that reaches it.',
            yaml:
              first === undefined
                ? undefined
                : portPatchYaml(
                    first.service,
                    (first.service.spec.ports ?? []).find((p) => p.port === first.port) ?? {
                      port: first.port,
                    },
                    first.protocol === 'auto' ? 'tcp' : first.protocol.toLowerCase(),
                  ),
          },
        });
      }
      if (ports.length > 1) {
        const svcs = [...new Set(list.map((u) => u.service.metadata.name))].sort();
        out.push({
          code: CODES.conflictingTargetPort,
          severity: 'warning',
          subject,
          part: { kind: 'targetPort', name: target },
          evidence: { targetPort: target, ports: ports.join(','), services: svcs.join(',') },
          fix: {
            why: 'Service ports that reach the same targetPort must use the same port number.',
          },
        });
      }
    }
    for (const [port, list] of groupBy(uses, (u) => String(u.port))) {
      const kp = [...new Set(list.map((u) => u.kubeProtocol))].sort();
      if (kp.length > 1) {
        out.push({
          code: CODES.multiServiceProtocol,
          severity: 'warning',
          subject,
          part: { kind: 'port', name: port },
          evidence: {
            port: Number(port),
            protocols: kp.join(','),
            services: [...new Set(list.map((u) => u.service.metadata.name))].sort().join(','),
          },
          fix: { why: 'Use one protocol per port number across the Services of a workload.' },
        });
      }
    }
  }
  return out;
}
