/**
 * The patch formats of PATCH requests: JSON merge patch (RFC 7386, what kubectl apply sends for
 * custom resources), strategic merge patch (built-in kinds: lists of objects merge by their key,
 * `$patch` directives) and JSON patch (RFC 6902, `kubectl patch --type=json`). Pure functions on
 * plain JSON values; each throws PatchError with a message the API server would give.
 */
import { isJsonObject } from '../../../lib/json-object';

export class PatchError extends Error {
  override name = 'PatchError';
}

type Obj = Record<string, unknown>;

const isObj = isJsonObject;

const clone = <T>(v: T): T => structuredClone(v);

/** RFC 7386: objects merge key by key, null deletes, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return clone(patch);
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Keys by which Kubernetes merges lists of objects (patchMergeKey), most specific first. */
const MERGE_KEYS = ['name', 'containerPort', 'mountPath', 'devicePath', 'ip', 'type', 'port'];

function mergeKeyOf(items: unknown[]): string | undefined {
  const objs = items.filter(isObj);
  if (objs.length === 0 || objs.length !== items.length) return undefined;
  return MERGE_KEYS.find((k) => objs.every((o) => o[k] !== undefined || o.$patch !== undefined));
}

function strategicList(target: unknown, patch: unknown[]): unknown[] {
  const cur = Array.isArray(target) ? target : [];
  const key = mergeKeyOf(patch) ?? (patch.length === 0 ? undefined : mergeKeyOf(cur));
  if (key === undefined || !patch.every(isObj)) return clone(patch);
  if (patch.some((p) => isObj(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObj(p) && p.$patch === 'replace')).map(clone);
  }
  const out = cur.map(clone);
  for (const p of patch as Obj[]) {
    const i = out.findIndex((o) => isObj(o) && o[key] === p[key]);
    if (p.$patch === 'delete') {
      if (i >= 0) out.splice(i, 1);
      continue;
    }
    if (i >= 0) out[i] = strategicMergePatch(out[i], p);
    else out.push(strategicMergePatch(undefined, p));
  }
  return out;
}

/**
 * Strategic merge patch, as far as the simulator's kinds need it: maps merge (null deletes,
 * `$patch: replace` / `delete`), lists of objects merge by their merge key, other lists replace;
 * `$setElementOrder/`, `$retainKeys` and `$deleteFromPrimitiveList/` are honoured or dropped.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) return strategicList(target, patch);
  if (!isObj(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return strategicMergePatch(undefined, rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/')) continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const gone = new Set(Array.isArray(v) ? v : []);
      const list = out[field];
      if (Array.isArray(list)) out[field] = list.filter((x) => !gone.has(x));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const merged = strategicMergePatch(out[k], v);
    if (merged === undefined) delete out[k];
    else out[k] = merged;
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys as unknown[]);
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid JSON pointer "${path}"`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc: unknown, segs: string[], path: string): { parent: unknown; last: string } {
  let cur = doc;
  for (const s of segs.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(s)];
    else if (isObj(cur)) cur = cur[s];
    else cur = undefined;
    if (cur === undefined) throw new PatchError(`jsonpatch: path "${path}" does not exist`);
  }
  return { parent: cur, last: segs[segs.length - 1] ?? '' };
}

function getAt(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const s of pointer(path)) {
    if (Array.isArray(cur)) cur = cur[Number(s)];
    else if (isObj(cur)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

function removeAt(doc: unknown, path: string): unknown {
  const segs = pointer(path);
  if (segs.length === 0) throw new PatchError('jsonpatch: cannot remove the whole document');
  const { parent, last } = parentOf(doc, segs, path);
  if (Array.isArray(parent)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length)
      throw new PatchError(`jsonpatch remove: index out of range in "${path}"`);
    return parent.splice(i, 1)[0];
  }
  if (!isObj(parent) || !(last in parent))
    throw new PatchError(`jsonpatch remove operation does not apply: doc is missing path: ${path}`);
  const v = parent[last];
  delete parent[last];
  return v;
}

function addAt(doc: unknown, path: string, value: unknown, replace: boolean): unknown {
  const segs = pointer(path);
  if (segs.length === 0) return clone(value);
  const { parent, last } = parentOf(doc, segs, path);
  if (Array.isArray(parent)) {
    const i = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(i) || i < 0 || i > parent.length - (replace ? 1 : 0))
      throw new PatchError(`jsonpatch: index out of range in "${path}"`);
    parent.splice(i, replace ? 1 : 0, clone(value));
  } else if (isObj(parent)) {
    if (replace && !(last in parent))
      throw new PatchError(
        `jsonpatch replace operation does not apply: doc is missing key: ${path}`,
      );
    parent[last] = clone(value);
  } else throw new PatchError(`jsonpatch: path "${path}" does not exist`);
  return doc;
}

/** RFC 6902 JSON patch. */
export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new PatchError('a JSON patch must be an array of operations');
  let doc = clone(target);
  for (const raw of ops) {
    if (!isObj(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string')
      throw new PatchError('each JSON patch operation needs "op" and "path"');
    const { op, path } = raw;
    switch (op) {
      case 'add':
        doc = addAt(doc, path, raw.value, false);
        break;
      case 'replace':
        doc = addAt(doc, path, raw.value, true);
        break;
      case 'remove':
        removeAt(doc, path);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(raw.value))
          throw new PatchError(`testing value ${path} failed`);
        break;
      case 'move':
      case 'copy': {
        if (typeof raw.from !== 'string') throw new PatchError(`jsonpatch ${op} needs "from"`);
        const v = op === 'move' ? removeAt(doc, raw.from) : clone(getAt(doc, raw.from));
        if (v === undefined) throw new PatchError(`jsonpatch: "from" ${raw.from} does not exist`);
        doc = addAt(doc, path, v, false);
        break;
      }
      default:
        throw new PatchError(`unexpected JSON patch operation "${op}"`);
    }
  }
  return doc;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** The patch type a Content-Type names, or undefined (415). */
export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
  const t = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  switch (t) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
    case 'application/apply-patch+json':
      return 'apply';
    default:
      return undefined;
  }
}
