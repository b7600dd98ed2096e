import { guarded, perObject } from '../findings/guard';
import type { Finding } from '../findings/types';
import type { Pod, Service } from '../kube/types';
import { externalHostFindings, type ClientRecords } from './external';
import { multiplexFindings } from './multiplex';
import { servicePortFindings } from './ports';
import { probeFindings } from './probes';
import { hasProxy } from '../dataplane/proxy-container';

export interface ProtocolInput {
  /** Screened objects (lib/findings/screen.ts): each has the shape its kind requires. */
  services: readonly Service[];
  pods: readonly Pod[];
  /** Parsed istio-proxy access logs by client workload; empty when none were read. */
  accessLogs?: readonly ClientRecords[];
  /**
   * Which pods count as meshed for the workload checks (IST0116, IST0137, MDX0504): by default
   * those with an istio-proxy; manifests pass pods-to-be that the injector will mesh.
   */
  meshed?: (p: Pod) => boolean;
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
    ...perObject('service-ports', input.services, (s) =>
      servicePortFindings(s, podsByNs.get(s.metadata.namespace ?? '') ?? []),
    ),
    ...guarded('multiplexed-ports', () =>
      multiplexFindings(live, input.services, input.meshed ?? hasProxy),
    ),
    ...guarded('probes', () => probeFindings(live)),
    ...guarded('external-hosts', () => externalHostFindings(input.accessLogs ?? [])),
  ];
}
