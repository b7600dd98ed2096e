import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../kube/types';
import type { ParseProblem } from '../parse-problem';
import { yamlValue } from '../yaml-limits';

/**
 * The Kubernetes objects of a bug-report's YAML files (`cluster/k8s-resources`,
 * `k8s-cluster-resources`, `crs`, `nodes`, `pods`): each is `kubectl get ... -o yaml` output, a
 * `List` (or, from older istioctl, several documents), whose items are kept when they carry a
 * kind and a name. An object in two files (a pod in `pods` and in `k8s-resources`) is kept once.
 */
export interface ArchiveObjectSet {
  objects: KubeObject[];
  problems: (ParseProblem & { entry: string })[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** An object's identity across the files: its group, kind, namespace and name. */
function identity(o: KubeObject): string {
  const group = (o.apiVersion ?? '').includes('/') ? (o.apiVersion ?? '').split('/')[0] : '';
  return JSON.stringify([group, o.kind, o.metadata.namespace ?? '', o.metadata.name]);
}

export function collectArchiveObjects(files: { entry: string; text: string }[]): ArchiveObjectSet {
  const byId = new Map<string, KubeObject>();
  const problems: ArchiveObjectSet['problems'] = [];
  for (const { entry, text } of files) {
    let docs;
    try {
      docs = parseAllDocuments(text, { prettyErrors: false });
    } catch (e) {
      problems.push({ entry, line: 0, reason: 'syntax', message: `not YAML: ${String(e)}` });
      continue;
    }
    const list = Array.isArray(docs) ? docs : [docs];
    for (const doc of list) {
      if (doc.errors.length > 0) {
        const err = doc.errors[0];
        problems.push({
          entry,
          line: err?.linePos?.[0]?.line ?? 0,
          reason: 'syntax',
          message: `invalid YAML: ${err?.message.split('\n')[0] ?? 'unreadable'}`,
        });
        continue;
      }
      const v = yamlValue(doc);
      if ('error' in v) {
        problems.push({ entry, line: 0, reason: 'alias', message: v.error });
        continue;
      }
      if (v.value === null || v.value === undefined) continue;
      const items =
        isObject(v.value) &&
        Array.isArray(v.value.items) &&
        String(v.value.kind ?? '').endsWith('List')
          ? (v.value.items as unknown[])
          : [v.value];
      items.forEach((item, i) => {
        const meta = isObject(item) ? item.metadata : undefined;
        if (
          !isObject(item) ||
          typeof item.kind !== 'string' ||
          !isObject(meta) ||
          typeof meta.name !== 'string'
        ) {
          problems.push({
            entry,
            line: 0,
            reason: 'object',
            message: `item ${i + 1} has no kind and metadata.name: left out`,
          });
          return;
        }
        const obj = item as unknown as KubeObject;
        const id = identity(obj);
        if (!byId.has(id)) byId.set(id, obj);
      });
    }
  }
  return { objects: [...byId.values()], problems };
}
