import type { KubeObject } from '../../../lib/kube/types';
import type { KindInfo } from '../store/kinds';
import { at } from './printers';
import { nameErrors } from './names';
import { isJsonObject } from '../../../lib/json-object';

/**
 * Validation of the fields meshdx reads, as kube-apiserver's validation does it
 * (pkg/apis/core/validation, pkg/apis/apps/validation, apimachinery's ObjectMeta checks): each
 * problem is one field error, reported as a cause of a 422 Invalid Status.
 */
export type CauseReason =
  'FieldValueRequired' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueInvalid';

export interface StatusCause {
  reason: CauseReason;
  message: string;
  field: string;
}

/** Go's %v of a value in a field error ("Invalid value: ..."): strings quoted, numbers bare. */
function goValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(String(x))}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

export const required = (field: string, detail = ''): StatusCause => ({
  reason: 'FieldValueRequired',
  field,
  message: detail === '' ? 'Required value' : `Required value: ${detail}`,
});
export const invalid = (field: string, value: unknown, detail: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${goValue(value)}: ${detail}`,
});
export const duplicate = (field: string, value: unknown): StatusCause => ({
  reason: 'FieldValueDuplicate',
  field,
  message: `Duplicate value: ${goValue(value)}`,
});
export const notSupported = (field: string, value: unknown, supported: string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${goValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** The kinds whose names must be DNS-1123 labels; everything else takes a subdomain. */
const LABEL_NAMED = new Set(['namespaces', 'services']);

export function nameCauses(info: KindInfo, name: string | undefined): StatusCause[] {
  if (name === undefined || name === '') {
    return [required('metadata.name', 'name or generateName is required')];
  }
  return nameErrors(name, LABEL_NAMED.has(info.resource)).map((m) =>
    invalid('metadata.name', name, m),
  );
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isObject = isJsonObject;

function labelCauses(field: string, value: string): StatusCause[] {
  return nameErrors(value, true).map((m) => invalid(field, value, m));
}

/** Containers of a pod spec at `path` ("spec" for pods, "spec.template.spec" for controllers). */
function podSpecCauses(spec: unknown, path: string): StatusCause[] {
  const containers = isObject(spec) ? spec.containers : undefined;
  if (!Array.isArray(containers) || containers.length === 0) {
    return [required(`${path}.containers`)];
  }
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  const check = (list: unknown[], field: string) =>
    list.forEach((c, i) => {
      const f = `${path}.${field}[${i}]`;
      const name = isObject(c) ? c.name : undefined;
      if (typeof name !== 'string' || name === '') out.push(required(`${f}.name`));
      else {
        out.push(...labelCauses(`${f}.name`, name));
        if (seen.has(name)) out.push(duplicate(`${f}.name`, name));
        seen.add(name);
      }
      const image = isObject(c) ? c.image : undefined;
      if (typeof image !== 'string' || image.trim() === '') out.push(required(`${f}.image`));
      asArray(isObject(c) ? c.ports : undefined).forEach((p, j) => {
        const port = isObject(p) ? p.containerPort : undefined;
        if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
          out.push(
            invalid(
              `${f}.ports[${j}].containerPort`,
              port ?? 0,
              'must be between 1 and 65535, inclusive',
            ),
          );
        }
      });
    });
  check(asArray(isObject(spec) ? spec.initContainers : undefined), 'initContainers');
  check(containers, 'containers');
  return out;
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function serviceCauses(obj: KubeObject): StatusCause[] {
  const spec = at(obj, 'spec');
  const out: StatusCause[] = [];
  const type = at(obj, 'spec.type') ?? 'ClusterIP';
  if (typeof type !== 'string' || !SERVICE_TYPES.includes(type)) {
    out.push(notSupported('spec.type', type, SERVICE_TYPES));
  }
  const ports = isObject(spec) ? spec.ports : undefined;
  const headless = at(obj, 'spec.clusterIP') === 'None';
  if ((!Array.isArray(ports) || ports.length === 0) && type !== 'ExternalName' && !headless) {
    out.push(required('spec.ports'));
  }
  const list = asArray(ports);
  const names = new Set<string>();
  list.forEach((p, i) => {
    const f = `spec.ports[${i}]`;
    const port = isObject(p) ? p : {};
    const name = port.name;
    if (list.length > 1 && (typeof name !== 'string' || name === '')) {
      out.push(required(`${f}.name`));
    } else if (typeof name === 'string' && name !== '') {
      out.push(...labelCauses(`${f}.name`, name));
      if (names.has(name)) out.push(duplicate(`${f}.name`, name));
      names.add(name);
    }
    const n = port.port;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      out.push(invalid(`${f}.port`, n ?? 0, 'must be between 1 and 65535, inclusive'));
    }
    const protocol = port.protocol ?? 'TCP';
    if (typeof protocol !== 'string' || !PROTOCOLS.includes(protocol)) {
      out.push(notSupported(`${f}.protocol`, protocol, PROTOCOLS));
    }
  });
  return out;
}

function selectorCauses(obj: KubeObject, templateLabelsPath: string): StatusCause[] {
  const selector = at(obj, 'spec.selector');
  if (!isObject(selector)) return [required('spec.selector')];
  const match = selector.matchLabels;
  const exprs = asArray(selector.matchExpressions);
  if ((!isObject(match) || Object.keys(match).length === 0) && exprs.length === 0) {
    return [invalid('spec.selector', selector, 'empty selector is invalid for deployment')];
  }
  const labels = at(obj, templateLabelsPath);
  const have = isObject(labels) ? labels : {};
  if (isObject(match) && Object.entries(match).some(([k, v]) => have[k] !== v)) {
    return [invalid(templateLabelsPath, have, '`selector` does not match template `labels`')];
  }
  return [];
}

/** Field errors of an object about to be stored through the API; empty when it is valid. */
export function validateObject(info: KindInfo, obj: KubeObject): StatusCause[] {
  const out = nameCauses(info, obj.metadata.name);
  switch (info.resource) {
    case 'pods':
      out.push(...podSpecCauses(at(obj, 'spec'), 'spec'));
      break;
    case 'services':
      out.push(...serviceCauses(obj));
      break;
    case 'deployments':
    case 'replicasets':
    case 'statefulsets':
    case 'daemonsets':
      out.push(...selectorCauses(obj, 'spec.template.metadata.labels'));
      out.push(...podSpecCauses(at(obj, 'spec.template.spec'), 'spec.template.spec'));
      break;
    case 'jobs':
      out.push(...podSpecCauses(at(obj, 'spec.template.spec'), 'spec.template.spec'));
      break;
    case 'cronjobs':
      if (typeof at(obj, 'spec.schedule') !== 'string') out.push(required('spec.schedule'));
      out.push(
        ...podSpecCauses(
          at(obj, 'spec.jobTemplate.spec.template.spec'),
          'spec.jobTemplate.spec.template.spec',
        ),
      );
      break;
    default:
      break;
  }
  return out;
}
