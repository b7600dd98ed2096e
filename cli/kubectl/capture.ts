/**
 * What `kubectl meshdx findings|timeline` read of a cluster, read through kubectl itself: with
 * the user's kubeconfig, context, credentials plugins and proxies, exactly what their kubectl
 * can read. Each `kubectl get` writes its List to a file of a folder the meshdx command then
 * reads as it reads any kubectl output. A read that fails fails the command, naming what kubectl
 * said: a finding judged on half a cluster would say more than its evidence.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RULE_KINDS } from '../../lib/findings/rules/index';
import { CHECKED_KINDS } from '../../lib/findings/screen';
import { kindResource } from '../../lib/kube/resource-kinds';
import { isJsonObject } from '../../lib/json-object';
import type { KubectlFlags } from './flags';

/**
 * Runs kubectl (with the user's --kubeconfig and --context); with a `file`, its standard output
 * goes there (and `stdout` is empty), else it is returned.
 */
export type RunKubectl = (
  args: string[],
  file: string | null,
) => Promise<{ code: number; stdout: string; stderr: string }>;

/** A read kubectl refused: the command and what kubectl said. */
export class KubectlReadError extends Error {}

/**
 * Kinds read apart: Secrets never (credentials; istioctl's bug-report leaves them out too), the
 * ConfigMaps of Istio's root namespace only (the mesh config, the injector's templates), the
 * Namespaces with the other cluster-scoped kinds.
 */
const APART: ReadonlySet<string> = new Set(['Secret', 'ConfigMap', 'Namespace']);

async function get(kubectl: RunKubectl, args: string[], file: string | null): Promise<string> {
  const r = await kubectl(args, file);
  if (r.code !== 0)
    throw new KubectlReadError(
      `kubectl ${args.join(' ')}: ${r.stderr.trim() || `exit status ${r.code}`}`,
    );
  return r.stdout;
}

/** The namespace kubectl uses without -n: the context's, else `default`. */
export async function contextNamespace(kubectl: RunKubectl): Promise<string> {
  const ns = await get(
    kubectl,
    ['config', 'view', '--minify', '-o', 'jsonpath={..namespace}'],
    null,
  );
  return ns.trim() || 'default';
}

/** `plural.group` of every resource the API server serves (`pods`, `deployments.apps`). */
async function servedNames(kubectl: RunKubectl): Promise<ReadonlySet<string>> {
  const out = await get(kubectl, ['api-resources', '-o', 'name'], null);
  return new Set(
    out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
}

/** A CRD's schemas are most of its bytes and no rule reads them: left out of the file. */
function withoutSchemas(file: string): void {
  const list: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!isJsonObject(list) || !Array.isArray(list.items)) return;
  for (const item of list.items) {
    if (!isJsonObject(item) || item.kind !== 'CustomResourceDefinition') continue;
    const spec = item.spec;
    if (!isJsonObject(spec) || !Array.isArray(spec.versions)) continue;
    for (const v of spec.versions) if (isJsonObject(v)) delete v.schema;
  }
  fs.writeFileSync(file, JSON.stringify(list));
}

export interface FindingsCapture {
  /** The namespace whose findings are asked for, null for every namespace (-A). */
  namespace: string | null;
  /** Kinds the cluster does not serve (a CRD not installed): none of them exist. */
  notServed: string[];
}

/**
 * Reads the objects `meshdx findings` judges into `dir`: those of every namespace whatever the
 * scope, as istioctl analyze reads them, since a VirtualService of one namespace names Gateways,
 * hosts and exports of others; the scope (-n, else the context's namespace; -A every one) is the
 * namespace the findings are reported for.
 */
export async function captureForFindings(
  kubectl: RunKubectl,
  flags: KubectlFlags,
  dir: string,
): Promise<FindingsCapture> {
  const namespace = flags.allNamespaces
    ? null
    : (flags.namespace ?? (await contextNamespace(kubectl)));
  const served = await servedNames(kubectl);
  const namespaced: string[] = [];
  const clusterWide: string[] = ['namespaces'];
  const notServed: string[] = [];
  for (const kind of [...new Set([...CHECKED_KINDS, ...RULE_KINDS])].sort()) {
    if (APART.has(kind)) continue;
    const res = kindResource(kind);
    if (res === null) continue;
    const name = res.group ? `${res.plural}.${res.group}` : res.plural;
    if (!served.has(name)) notServed.push(kind);
    else (res.namespaced ? namespaced : clusterWide).push(name);
  }
  const file = (n: string) => path.join(dir, `${n}.json`);
  await get(kubectl, ['get', namespaced.join(','), '-o', 'json', '-A'], file('namespaced'));
  await get(kubectl, ['get', clusterWide.join(','), '-o', 'json'], file('cluster'));
  withoutSchemas(file('cluster'));
  await get(
    kubectl,
    ['get', 'configmaps', '-n', flags.istioNamespace, '-o', 'json'],
    file('root-configmaps'),
  );
  return { namespace, notServed };
}

/** The items of a List kubectl wrote (a single object named alone is its own item). */
function itemsOf(file: string): unknown[] {
  const doc: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!isJsonObject(doc)) return [];
  return Array.isArray(doc.items) ? doc.items : [doc];
}

/**
 * Reads the pods `meshdx timeline` judges (the names given, or every pod of the scope) with
 * their events (the kubelet's Started, Killing, Unhealthy: what dates a start or a shutdown
 * where the status alone does not) into one List, `dir/pods.json`, and the mesh config (the
 * istio ConfigMap of the root namespace) into `dir/mesh.json` when there is one. Returns that
 * file, or null.
 */
export async function captureForTimeline(
  kubectl: RunKubectl,
  flags: KubectlFlags,
  pods: readonly string[],
  dir: string,
): Promise<string | null> {
  const scope = flags.allNamespaces
    ? ['-A']
    : flags.namespace !== null
      ? ['-n', flags.namespace]
      : [];
  const podsFile = path.join(dir, 'pods.json');
  const eventsFile = path.join(dir, 'events.json');
  await get(kubectl, ['get', 'pods', ...pods, '-o', 'json', ...scope], podsFile);
  await get(kubectl, ['get', 'events', '-o', 'json', ...scope], eventsFile);
  const named = new Set(pods);
  const events = itemsOf(eventsFile).filter((e) => {
    if (named.size === 0) return true;
    const involved = isJsonObject(e) ? e.involvedObject : null;
    return isJsonObject(involved) && typeof involved.name === 'string' && named.has(involved.name);
  });
  fs.writeFileSync(
    podsFile,
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...itemsOf(podsFile), ...events] }),
  );
  fs.rmSync(eventsFile);
  const mesh = path.join(dir, 'mesh.json');
  await get(
    kubectl,
    ['get', 'configmap', 'istio', '-n', flags.istioNamespace, '-o', 'json', '--ignore-not-found'],
    mesh,
  );
  // --ignore-not-found writes nothing for a cluster without that ConfigMap
  return fs.statSync(mesh).size === 0 ? null : mesh;
}
