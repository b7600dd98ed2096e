/**
 * Protobuf FieldMask as Envoy applies it to /config_dump output: keep only the listed paths
 * (`cluster.name,cluster.type`); `@type` of every kept message (Any) stays so the result still
 * says what it is. Paths through arrays apply to every element.
 */
type Tree = Map<string, Tree>;

export function parseMask(mask: string): string[] {
  return mask
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function buildTree(paths: readonly string[]): Tree {
  const root: Tree = new Map();
  for (const path of paths) {
    let node = root;
    for (const seg of path.split('.')) {
      let next = node.get(seg);
      if (!next) {
        next = new Map();
        node.set(seg, next);
      }
      node = next;
    }
  }
  return root;
}

function apply(value: unknown, tree: Tree): unknown {
  if (tree.size === 0) return value;
  if (Array.isArray(value)) return value.map((v) => apply(v, tree));
  if (!value || typeof value !== 'object') return undefined;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof obj['@type'] === 'string') out['@type'] = obj['@type'];
  for (const [key, sub] of tree) {
    if (!(key in obj)) continue;
    const v = apply(obj[key], sub);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export function applyMask<T>(value: T, paths: readonly string[]): unknown {
  return paths.length === 0 ? value : apply(value, buildTree(paths));
}
