import type { Finding, FindingPart, FindingSubject } from '../findings/types';
import type { Pod, Service, ServicePort } from '../kube/types';
import { CODES } from './codes';
import { serverFirstHint, suggestProtocol } from './hints';
import { resolvePortProtocol } from './resolve';
import { portChecksApplyTo, resolveTargetPort, selects } from './select';

/** The port entry with appProtocol set, as YAML under spec.ports, to paste into the Service. */
export function portPatchYaml(svc: Service, sp: ServicePort, appProtocol: string): string {
  const lines = [
    `# kubectl -n ${svc.metadata.namespace ?? 'default'} edit service ${svc.metadata.name}`,
    'spec:',
    '  ports:',
    `  - name: ${sp.name ?? `${appProtocol}-${sp.port}`}`,
    `    port: ${sp.port}`,
  ];
  if (sp.targetPort !== undefined) lines.push(`    targetPort: ${sp.targetPort}`);
  lines.push(`    appProtocol: ${appProtocol}`);
  return `${lines.join('\n')}\n`;
}

/** A Service port as a finding's part: its number and protocol, e.g. `8080/TCP`. */
export function portPart(sp: ServicePort): FindingPart {
  return { kind: 'port', name: `${sp.port}/${(sp.protocol ?? 'TCP').toUpperCase()}` };
}

function subjectOf(svc: Service): FindingSubject {
  return { kind: 'Service', namespace: svc.metadata.namespace, name: svc.metadata.name };
}

/** Port-by-port protocol checks of one Service; `pods` are the pods of its namespace. */
export function servicePortFindings(svc: Service, pods: readonly Pod[]): Finding[] {
  if (!portChecksApplyTo(svc)) return [];
  const out: Finding[] = [];
  const pod = pods.find((p) => selects(svc, p));
  const external = svc.spec.type === 'ExternalName';
  for (const sp of svc.spec.ports ?? []) {
    const r = resolvePortProtocol(sp);
    const portLabel = sp.name === undefined || sp.name === '' ? '(unnamed)' : sp.name;
    const base = {
      port: sp.port,
      portName: portLabel,
      targetPort: String(sp.targetPort ?? sp.port),
      appProtocol: sp.appProtocol ?? null,
    };
    if (external) {
      if (r.protocol === null || sp.name === 'tcp') {
        out.push({
          code: CODES.externalNamePortName,
          severity: 'warning',
          subject: subjectOf(svc),
          part: portPart(sp),
          evidence: { ...base, externalName: svc.spec.externalName ?? null },
          fix: {
            why: 'Declare the real protocol (https, tls, http...) so the proxy routes the ExternalName host by it.',
            yaml: portPatchYaml(svc, sp, sp.port === 443 ? 'https' : 'tls'),
          },
        });
      }
      continue;
    }
    const target = resolveTargetPort(sp, pod);
    if (r.source === 'sniffed') {
      const hint = serverFirstHint(sp.port, target, pod);
      const suggested = suggestProtocol(sp.port, target, hint !== null);
      out.push({
        code: CODES.portNameConvention,
        severity: 'info',
        subject: subjectOf(svc),
        part: portPart(sp),
        evidence: { ...base, resolved: 'sniffed', suggested },
        fix: {
          why: `Declare the protocol so Istio stops sniffing: appProtocol: ${suggested} (or name the port ${suggested}-${sp.name || sp.port}).`,
          yaml: portPatchYaml(svc, sp, suggested),
        },
      });
      if (hint !== null) {
        out.push({
          code: CODES.serverFirstSniffed,
          severity: 'error',
          subject: subjectOf(svc),
          part: portPart(sp),
          evidence: {
            ...base,
            protocol: hint.protocol,
            detectedBy: hint.by,
            detectedFrom: hint.value,
            pod: pod?.metadata.name ?? null,
          },
          fix: {
            why: `${hint.protocol} speaks first; a sniffing proxy waits for the client and the connection hangs. Declare the port as TCP.`,
            yaml: portPatchYaml(svc, sp, 'tcp'),
          },
        });
      }
    } else if (r.source === 'well-known-port') {
      out.push({
        code: CODES.tcpByWellKnownPort,
        severity: 'info',
        subject: subjectOf(svc),
        part: portPart(sp),
        evidence: { ...base, resolved: 'TCP (well-known port number)' },
        fix: {
          why: 'Istio treats this port as TCP only because of its number; declare it so a port change does not turn sniffing on.',
          yaml: portPatchYaml(svc, sp, 'tcp'),
        },
      });
    }
    if (r.protocol === 'MySQL' || r.protocol === 'Redis') {
      out.push({
        code: CODES.filterOffByDefault,
        severity: 'info',
        subject: subjectOf(svc),
        part: portPart(sp),
        evidence: { ...base, resolved: r.protocol, declaredBy: r.source },
        fix: {
          why: `Istio handles ${r.protocol} as plain TCP unless istiod runs with PILOT_ENABLE_${r.protocol.toUpperCase()}_FILTER=true; say tcp to make that explicit.`,
          yaml: portPatchYaml(svc, sp, 'tcp'),
        },
      });
    }
  }
  return out;
}
