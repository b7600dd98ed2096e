import type { Finding } from '../findings/types';
import type { Pod, Service } from '../kube/types';
import { externalHostFindings, type ClientRecords } from './external';
import { multiplexFindings } from './multiplex';
import { servicePortFindings } from './ports';
import { probeFindings } from './probes';

export interface ProtocolInput {
  services: readonly Service[];
  pods: readonly Pod[];
  /** Parsed istio-proxy access logs by client workload; empty when none were read. */
  accessLogs?: readonly ClientRecords[];
}

/** Every protocol-selection finding: port names, server-first, multiplexing, probes, external hosts. */
export function protocolFindings(input: ProtocolInput): Finding[] {
  const podsByNs = new Map<string, Pod[]>();
  for (const p of input.pods) {
    const ns = p.metadata.namespace ?? '';
    const l = podsByNs.get(ns);
    if (l === undefined) podsByNs.set(ns, [p]);
    else l.push(p);
  }
  const live = input.pods.filter(
    (p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
  );
  return [
    ...input.services.flatMap((s) =>
      servicePortFindings(s, podsByNs.get(s.metadata.namespace ?? '') ?? []),
    ),
    ...multiplexFindings(live, input.services),
    ...probeFindings(live),
    ...externalHostFindings(input.accessLogs ?? []),
  ];
}
