/**
 * Reads the mesh-wide defaultConfig from the `istio` ConfigMap (its `mesh` key), a raw mesh
 * config (`defaultConfig: ...`), or IstioOperator / Helm values (`meshConfig.defaultConfig`).
 * YAML or JSON; errors carry a position, nothing is thrown.
 */
import { isNode, parseAllDocuments, type Document } from 'yaml';
import { yamlValue } from '../yaml-limits';
import { positionAt } from '../parse-problem';
import { type TimelineInputProblem } from './position';
import { readProxyConfigObject, type ProxySettings } from './proxyconfig';
import { isJsonObject } from '../json-object';

export interface MeshSettings extends ProxySettings {
  /** What was found: 'configmap', 'mesh', 'meshConfig', or 'none'. */
  from: 'configmap' | 'mesh' | 'meshConfig' | 'none';
  /**
   * meshConfig.rootNamespace when it is set: where a Sidecar (or other config) without a
   * selector applies to the whole mesh. Unset, Istio takes istiod's own namespace.
   */
  rootNamespace?: string;
}

export interface MeshConfigResult {
  settings: MeshSettings;
  errors: TimelineInputProblem[];
  /** The mesh config itself (MeshConfig's fields, as parsed), for checks that read more of it. */
  mesh?: Record<string, unknown>;
}

/** A Kubernetes namespace name (RFC 1123 label). */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** What a mesh config says: its defaultConfig's proxy settings and its root namespace. */
function fromMesh(mesh: Record<string, unknown>, from: MeshSettings['from']): MeshSettings {
  const settings: MeshSettings = { ...readProxyConfigObject(mesh.defaultConfig), from };
  const root = mesh.rootNamespace ?? mesh.root_namespace;
  if (typeof root === 'string' && NAMESPACE_NAME.test(root)) settings.rootNamespace = root;
  return settings;
}

function yamlDocs(
  text: string,
  lineOffset: number,
): { values: unknown[]; docs: Document[]; errors: TimelineInputProblem[] } {
  const values: unknown[] = [];
  const docs: Document[] = [];
  const errors: TimelineInputProblem[] = [];
  for (const doc of parseAllDocuments(text, { prettyErrors: false })) {
    if (doc.errors.length) {
      for (const e of doc.errors) {
        const pos = positionAt(text, e.pos[0]);
        errors.push({
          line: pos.line + lineOffset,
          column: pos.column,
          reason: 'invalid-yaml',
          message: e.message.split('\n')[0] ?? e.message,
        });
      }
      continue;
    }
    const read = yamlValue(doc);
    if ('error' in read) {
      const pos = positionAt(text, doc.range[0]);
      errors.push({
        line: pos.line + lineOffset,
        column: pos.column,
        reason: 'invalid-yaml',
        message: read.error,
      });
      continue;
    }
    values.push(read.value);
    docs.push(doc);
  }
  return { values, docs, errors };
}

interface Interpreted {
  settings: MeshSettings;
  mesh?: Record<string, unknown>;
  /** The ConfigMap's data.mesh text and where it sits in the parsed value. */
  inner?: string;
  path?: (string | number)[];
}

/** Interprets one parsed value; null when it holds no mesh config. */
function interpret(value: unknown): Interpreted | null {
  if (!isJsonObject(value)) return null;
  if (value.kind === 'List' && Array.isArray(value.items)) {
    for (const [i, item] of value.items.entries()) {
      const r = interpret(item);
      if (r) return r.path ? { ...r, path: ['items', i, ...r.path] } : r;
    }
    return null;
  }
  const data = value.data;
  if (isJsonObject(data) && typeof data.mesh === 'string') {
    return { settings: { from: 'configmap' }, inner: data.mesh, path: ['data', 'mesh'] };
  }
  if (isJsonObject(value.spec) && isJsonObject(value.spec.meshConfig)) {
    const mesh = value.spec.meshConfig;
    return { settings: fromMesh(mesh, 'meshConfig'), mesh };
  }
  if (isJsonObject(value.meshConfig)) {
    const mesh = value.meshConfig;
    return { settings: fromMesh(mesh, 'meshConfig'), mesh };
  }
  if ('defaultConfig' in value || 'rootNamespace' in value)
    return { settings: fromMesh(value, 'mesh'), mesh: value };
  return null;
}

/** Position in the file of the value at `path` (the start of the data.mesh string). */
function positionOf(text: string, doc: Document | undefined, path: (string | number)[]) {
  const node: unknown = doc?.getIn(path, true);
  const range = isNode(node) ? node.range : undefined;
  return range ? positionAt(text, range[0]) : { line: 1, column: 1 };
}

/**
 * MeshConfig's top-level fields (istio.mesh.v1alpha1.MeshConfig, camelCase as istioctl and the
 * ConfigMap write them): a document without `kind` whose every key is one of these is a mesh
 * config, as `istioctl analyze --meshConfigFile` takes it.
 */
const MESH_CONFIG_FIELDS: ReadonlySet<string> = new Set([
  'proxyListenPort',
  'proxyInboundListenPort',
  'proxyHttpPort',
  'connectTimeout',
  'protocolDetectionTimeout',
  'tcpKeepalive',
  'ingressClass',
  'ingressService',
  'ingressControllerMode',
  'ingressSelector',
  'enableTracing',
  'accessLogFile',
  'accessLogFormat',
  'accessLogEncoding',
  'enableEnvoyAccessLogService',
  'disableEnvoyListenerLog',
  'defaultConfig',
  'outboundTrafficPolicy',
  'inboundTrafficPolicy',
  'configSources',
  'enableAutoMtls',
  'trustDomain',
  'trustDomainAliases',
  'caCertificates',
  'defaultServiceExportTo',
  'defaultVirtualServiceExportTo',
  'defaultDestinationRuleExportTo',
  'rootNamespace',
  'localityLbSetting',
  'dnsRefreshRate',
  'h2UpgradePolicy',
  'inboundClusterStatName',
  'outboundClusterStatName',
  'certificates',
  'serviceSettings',
  'enablePrometheusMerge',
  'verifyCertificateAtClient',
  'ca',
  'extensionProviders',
  'defaultProviders',
  'discoverySelectors',
  'pathNormalization',
  'defaultHttpRetryPolicy',
  'meshMTLS',
  'tlsDefaults',
  'serviceScopeConfigs',
]);

/** Whether a parsed document is a bare mesh config (no `kind`, only MeshConfig fields). */
export function isBareMeshConfig(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value) || 'kind' in value) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => MESH_CONFIG_FIELDS.has(k));
}

/**
 * The istio ConfigMap's `mesh` text read: its settings, and its errors, each saying where inside
 * the text it is; they are placed at `at` (the string's place in the file) when given, else at
 * their line and column in the text itself.
 */
function readMeshText(text: string, at?: { line: number; column: number }): MeshConfigResult {
  const inner = yamlDocs(text, 0);
  const mesh = inner.values.find(isJsonObject);
  return {
    settings: mesh ? fromMesh(mesh, 'configmap') : { from: 'configmap' },
    ...(mesh ? { mesh } : {}),
    errors: inner.errors.map((e) => ({
      ...e,
      ...at,
      message: `inside data.mesh, at line ${e.line} column ${e.column} of its text: ${e.message}`,
    })),
  };
}

/**
 * The mesh config one parsed document holds: the istio ConfigMap (its `mesh` text is parsed,
 * errors say they are inside it), a bare mesh config, IstioOperator or Helm values; null when
 * it holds none.
 */
export function meshConfigOfValue(value: unknown): MeshConfigResult | null {
  if (isBareMeshConfig(value))
    return { settings: fromMesh(value, 'mesh'), errors: [], mesh: value };
  const r = interpret(value);
  if (!r) return null;
  if (r.inner !== undefined) return readMeshText(r.inner);
  return { settings: r.settings, errors: [], ...(r.mesh ? { mesh: r.mesh } : {}) };
}

export function parseMeshConfig(text: string): MeshConfigResult {
  const { values, docs, errors } = yamlDocs(text, 0);
  for (const [i, value] of values.entries()) {
    const r = interpret(value);
    if (!r) continue;
    if (r.inner === undefined)
      return { settings: r.settings, errors, ...(r.mesh ? { mesh: r.mesh } : {}) };
    // the errors are inside the data.mesh string, not in the file: point at the string and
    // say where inside it
    const read = readMeshText(r.inner, positionOf(text, docs[i], r.path ?? ['data', 'mesh']));
    return {
      settings: read.settings,
      errors: [...errors, ...read.errors],
      ...(read.mesh ? { mesh: read.mesh } : {}),
    };
  }
  if (errors.length === 0 && values.length > 0) {
    // A mesh config without defaultConfig is valid (all defaults), but say what was read.
    const first = values[0];
    if (isJsonObject(first) && first.kind === undefined)
      return { settings: { from: 'mesh' }, errors, mesh: first };
    errors.push({
      line: 1,
      column: 1,
      reason: 'no-mesh-config',
      message: 'no mesh config found (expected the istio ConfigMap, a mesh config, or meshConfig)',
    });
  }
  return { settings: { from: 'none' }, errors };
}
