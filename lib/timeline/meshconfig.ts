/**
 * Reads the mesh-wide defaultConfig from the `istio` ConfigMap (its `mesh` key), a raw mesh
 * config (`defaultConfig: ...`), or IstioOperator / Helm values (`meshConfig.defaultConfig`).
 * YAML or JSON; errors carry a position, nothing is thrown.
 */
import { parseAllDocuments } from 'yaml';
import { lineColAt, type InputError } from './position';
import { readProxyConfigObject, type ProxySettings } from './proxyconfig';

export interface MeshSettings extends ProxySettings {
  /** What was found: 'configmap', 'mesh', 'meshConfig', or 'none'. */
  from: 'configmap' | 'mesh' | 'meshConfig' | 'none';
}

export interface MeshConfigResult {
  settings: MeshSettings;
  errors: InputError[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fromDefaultConfig(
  mesh: Record<string, unknown>,
  from: MeshSettings['from'],
): MeshSettings {
  return { ...readProxyConfigObject(mesh.defaultConfig), from };
}

function yamlDocs(text: string, lineOffset: number): { values: unknown[]; errors: InputError[] } {
  const values: unknown[] = [];
  const errors: InputError[] = [];
  for (const doc of parseAllDocuments(text, { prettyErrors: false })) {
    if (doc.errors.length) {
      for (const e of doc.errors) {
        const pos = lineColAt(text, e.pos[0]);
        errors.push({
          line: pos.line + lineOffset,
          column: pos.column,
          message: e.message.split('\n')[0] ?? e.message,
        });
      }
      continue;
    }
    values.push(doc.toJS());
  }
  return { values, errors };
}

/** Interprets one parsed value; null when it holds no mesh config. */
function interpret(value: unknown): { settings: MeshSettings; inner?: string } | null {
  if (!isRecord(value)) return null;
  if (value.kind === 'List' && Array.isArray(value.items)) {
    for (const item of value.items) {
      const r = interpret(item);
      if (r) return r;
    }
    return null;
  }
  const data = value.data;
  if (isRecord(data) && typeof data.mesh === 'string') {
    return { settings: { from: 'configmap' }, inner: data.mesh };
  }
  if (isRecord(value.spec) && isRecord(value.spec.meshConfig)) {
    return { settings: fromDefaultConfig(value.spec.meshConfig, 'meshConfig') };
  }
  if (isRecord(value.meshConfig))
    return { settings: fromDefaultConfig(value.meshConfig, 'meshConfig') };
  if ('defaultConfig' in value) return { settings: fromDefaultConfig(value, 'mesh') };
  return null;
}

export function parseMeshConfig(text: string): MeshConfigResult {
  const { values, errors } = yamlDocs(text, 0);
  for (const value of values) {
    const r = interpret(value);
    if (!r) continue;
    if (r.inner === undefined) return { settings: r.settings, errors };
    const inner = yamlDocs(r.inner, 0);
    for (const e of inner.errors) {
      errors.push({
        ...e,
        message: `in data.mesh (line ${e.line} of the embedded YAML): ${e.message}`,
      });
    }
    const mesh = inner.values.find(isRecord);
    return {
      settings: mesh ? fromDefaultConfig(mesh, 'configmap') : { from: 'configmap' },
      errors,
    };
  }
  if (errors.length === 0 && values.length > 0) {
    // A mesh config without defaultConfig is valid (all defaults), but say what was read.
    const first = values[0];
    if (isRecord(first) && first.kind === undefined) return { settings: { from: 'mesh' }, errors };
    errors.push({
      line: 1,
      column: 1,
      message: 'no mesh config found (expected the istio ConfigMap, a mesh config, or meshConfig)',
    });
  }
  return { settings: { from: 'none' }, errors };
}
