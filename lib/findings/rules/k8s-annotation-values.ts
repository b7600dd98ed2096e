/**
 * The value checks Istio's injector applies to its pod annotations (istio/istio
 * pkg/kube/inject/validate.go, AnnotationValidation), which istioctl's annotations.K8sAnalyzer
 * reports as IST0125: each returns why the value is refused, or null when it is accepted.
 * proxy.istio.io/config is held to what its parse refuses (not YAML, or not a mapping); the
 * injector's further checks of a ProxyConfig's fields are not made here, so such a value is
 * never reported wrongly, only possibly missed.
 */
import { parseDocument } from 'yaml';

type ValueCheck = (value: string) => string | null;

const DECIMAL = /^[0-9]+$/;

function uint(value: string, max: number): string | null {
  if (!DECIMAL.test(value)) return `"${value}" is not an unsigned integer`;
  return Number(value) > max ? `${value} is out of range (max ${max})` : null;
}

function port(value: string): string | null {
  const why = uint(value.trim(), 65535);
  return why === null ? null : `failed parsing port '${value}': ${why}`;
}

function portList(name: string): ValueCheck {
  return (value) => {
    const ports = value.trim();
    if (ports === '') return null;
    for (const p of ports.split(',')) {
      const why = port(p);
      if (why !== null) return `${name} invalid: ${why}`;
    }
    return null;
  };
}

const IPV4 =
  /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

function ipv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.includes(':::')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string): string[] | null => (s === '' ? [] : s.split(':'));
  const parts = halves.flatMap((h) => groups(h) ?? []);
  let count = 0;
  for (const [i, p] of parts.entries()) {
    if (i === parts.length - 1 && p.includes('.')) {
      if (!IPV4.test(p)) return false;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
}

/** A CIDR as Go's netip.ParsePrefix takes it: an address, a slash, the prefix length. */
function prefix(cidr: string): boolean {
  const slash = cidr.lastIndexOf('/');
  if (slash < 0) return false;
  const addr = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bits)) return false;
  if (IPV4.test(addr)) return Number(bits) <= 32;
  return ipv6(addr) && Number(bits) <= 128;
}

function cidrList(name: string, star: boolean): ValueCheck {
  return (value) => {
    if ((star && value === '*') || value === '') return null;
    for (const c of value.split(',')) {
      if (!prefix(c)) return `${name} invalid: failed parsing cidr '${c}'`;
    }
    return null;
  };
}

const INTERFACE = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;

function interfaceNames(value: string): string | null {
  if (value === '') return null;
  for (const raw of value.split(',')) {
    const i = raw.trim();
    if (i === '') return 'empty interface name';
    if (i.length > 15) return `interface name "${i}" too long (max 15 chars)`;
    if (!INTERFACE.test(i)) return `interface name "${i}" contains invalid characters`;
  }
  return null;
}

const BOOLS: ReadonlySet<string> = new Set([
  '1',
  't',
  'T',
  'TRUE',
  'true',
  'True',
  '0',
  'f',
  'F',
  'FALSE',
  'false',
  'False',
]);

/** A Kubernetes resource quantity: a signed decimal and a binary, decimal or exponent suffix. */
const QUANTITY =
  /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

function quantity(value: string): string | null {
  return QUANTITY.test(value) ? null : `"${value}" is not a resource quantity`;
}

function proxyConfig(value: string): string | null {
  const doc = parseDocument(value);
  if (doc.errors.length > 0) return `not YAML: ${doc.errors[0]?.message.split('\n')[0] ?? ''}`;
  const v: unknown = doc.toJS();
  if (v === null || v === undefined) return null;
  return typeof v === 'object' && !Array.isArray(v) ? null : 'not a ProxyConfig mapping';
}

const UINT32 = (v: string) => uint(v, 4294967295);
const INTERCEPTION_MODES: ReadonlySet<string> = new Set(['REDIRECT', 'TPROXY', 'NONE']);

export const ISTIO_ANNOTATION_CHECKS: ReadonlyMap<string, ValueCheck> = new Map<string, ValueCheck>(
  [
    [
      'sidecar.istio.io/interceptionMode',
      (v) =>
        INTERCEPTION_MODES.has(v)
          ? null
          : `interceptionMode invalid, use REDIRECT,TPROXY,NONE: ${v}`,
    ],
    [
      'status.sidecar.istio.io/port',
      (v) => (port(v) === null ? null : `excludeInboundPorts invalid: ${port(v) ?? ''}`),
    ],
    ['readiness.status.sidecar.istio.io/initialDelaySeconds', UINT32],
    ['readiness.status.sidecar.istio.io/periodSeconds', UINT32],
    ['readiness.status.sidecar.istio.io/failureThreshold', UINT32],
    ['traffic.sidecar.istio.io/includeOutboundIPRanges', cidrList('includeIPRanges', true)],
    ['traffic.sidecar.istio.io/excludeOutboundIPRanges', cidrList('excludeIPRanges', false)],
    [
      'traffic.sidecar.istio.io/includeInboundPorts',
      (v) => (v === '*' ? null : portList('includeInboundPorts')(v)),
    ],
    ['traffic.sidecar.istio.io/excludeInboundPorts', portList('excludeInboundPorts')],
    ['traffic.sidecar.istio.io/excludeOutboundPorts', portList('excludeOutboundPorts')],
    ['traffic.sidecar.istio.io/excludeInterfaces', interfaceNames],
    ['traffic.sidecar.istio.io/kubevirtInterfaces', interfaceNames],
    ['istio.io/reroute-virtual-interfaces', interfaceNames],
    ['prometheus.istio.io/merge-metrics', (v) => (BOOLS.has(v) ? null : `"${v}" is not a boolean`)],
    ['proxy.istio.io/config', proxyConfig],
    ['sidecar.istio.io/proxyCPU', quantity],
    ['sidecar.istio.io/proxyMemory', quantity],
    ['sidecar.istio.io/proxyCPULimit', quantity],
    ['sidecar.istio.io/proxyMemoryLimit', quantity],
  ],
);
