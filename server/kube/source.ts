import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** Where meshdx gets its cluster from, in the order it looks. */
export type ClusterSourceKind = 'kubeconfig' | 'in-cluster' | 'simulator';

export interface ClusterSource {
  kind: ClusterSourceKind;
  kc: KubeConfig;
  /** What the header shows: the context name, "in-cluster", or "simulated: <scenario>". */
  label: string;
  context?: string;
  kubeconfigPath?: string;
  server: string;
}

export type ConfigErrorCode =
  | 'KUBECONFIG_NOT_FOUND'
  | 'KUBECONFIG_INVALID'
  | 'CONTEXT_MISSING'
  | 'NO_CLUSTER'
  | 'API_UNREACHABLE';

/** A configuration problem, said so that an SRE knows what to change. */
export class ClusterConfigError extends Error {
  readonly code: ConfigErrorCode;
  readonly hint: string;
  constructor(code: ConfigErrorCode, message: string, hint: string) {
    super(message);
    this.name = 'ClusterConfigError';
    this.code = code;
    this.hint = hint;
  }
}

/** By name, not instanceof: see isKubeError. */
export function isClusterConfigError(e: unknown): e is ClusterConfigError {
  return (
    e instanceof Error &&
    e.name === 'ClusterConfigError' &&
    typeof (e as ClusterConfigError).code === 'string'
  );
}

export interface SourceOptions {
  /** --kubeconfig, or MESHDX_KUBECONFIG; wins over everything. */
  kubeconfig?: string;
  /** --context / MESHDX_CONTEXT: a context of the kubeconfig other than its current one. */
  context?: string;
  /** The simulator's scenario when meshdx was started as the demo (MESHDX_SIMULATED). */
  simulatedScenario?: string;
  env?: Record<string, string | undefined>;
  home?: string;
  /** Filesystem prefix before /var/run/secrets/... (tests). */
  serviceAccountRoot?: string;
}

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

function readKubeconfig(file: string, why: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    // loadFromFile also makes the file's relative certificate paths absolute
    kc.loadFromFile(file);
  } catch (err) {
    throw new ClusterConfigError(
      'KUBECONFIG_INVALID',
      `kubeconfig ${file} (${why}) cannot be read: ${(err as Error).message}`,
      'Check the file with `kubectl config view --kubeconfig FILE`.',
    );
  }
  return kc;
}

/**
 * Several kubeconfig files merged as kubectl merges a KUBECONFIG list: files that do not exist
 * are skipped, the first file to define a cluster, user or context name wins, and so does the
 * first current-context.
 */
function mergeKubeconfigs(configs: KubeConfig[]): KubeConfig {
  const [first, ...rest] = configs;
  if (first === undefined || rest.length === 0) return first ?? new KubeConfig();
  const byName = <T extends { name: string }>(lists: T[][]): T[] => {
    const seen = new Map<string, T>();
    for (const item of lists.flat()) if (!seen.has(item.name)) seen.set(item.name, item);
    return [...seen.values()];
  };
  const merged = new KubeConfig();
  merged.loadFromOptions({
    clusters: byName(configs.map((c) => c.getClusters())),
    users: byName(configs.map((c) => c.getUsers())),
    contexts: byName(configs.map((c) => c.getContexts())),
    currentContext: configs.map((c) => c.getCurrentContext()).find((c) => !!c) ?? '',
  });
  return merged;
}

function loadKubeconfigFiles(
  files: string[],
  context: string | undefined,
  why: string,
): KubeConfig {
  const present = files.filter((f) => fs.existsSync(f));
  if (present.length === 0) {
    throw new ClusterConfigError(
      'KUBECONFIG_NOT_FOUND',
      files.length === 1
        ? `kubeconfig ${files[0]} (${why}) does not exist`
        : `none of the kubeconfig files ${files.join(', ')} (${why}) exists`,
      'Point KUBECONFIG or --kubeconfig at an existing file, or unset it to use ~/.kube/config.',
    );
  }
  const kc = mergeKubeconfigs(present.map((f) => readKubeconfig(f, why)));
  const file = present.join(path.delimiter);
  const wanted = context ?? kc.getCurrentContext();
  if (!wanted) {
    throw new ClusterConfigError(
      'CONTEXT_MISSING',
      `kubeconfig ${file} has no current-context`,
      `Pick one with --context or \`kubectl config use-context NAME\`; contexts: ${
        kc
          .getContexts()
          .map((c) => c.name)
          .join(', ') || 'none'
      }.`,
    );
  }
  if (!kc.getContextObject(wanted)) {
    throw new ClusterConfigError(
      'CONTEXT_MISSING',
      `context "${wanted}" is not in kubeconfig ${file}`,
      `Available contexts: ${
        kc
          .getContexts()
          .map((c) => c.name)
          .join(', ') || 'none'
      }.`,
    );
  }
  kc.setCurrentContext(wanted);
  if (!kc.getCurrentCluster()) {
    throw new ClusterConfigError(
      'KUBECONFIG_INVALID',
      `context "${wanted}" in ${file} names a cluster that is not defined`,
      "Fix the context's cluster entry in the kubeconfig.",
    );
  }
  return kc;
}

interface KubeconfigChoice {
  files: string[];
  why: string;
}

/** The kubeconfig file(s) the options point at, in meshdx's order of preference. */
function chooseKubeconfig(opts: SourceOptions): KubeconfigChoice | undefined {
  const env = opts.env ?? process.env;
  const explicit = opts.kubeconfig ?? env.MESHDX_KUBECONFIG;
  const fromEnv = [
    ...new Set((env.KUBECONFIG ?? '').split(path.delimiter).filter((p) => p.length > 0)),
  ];
  const homeConfig = path.join(opts.home ?? os.homedir(), '.kube', 'config');
  if (explicit) return { files: [explicit], why: '--kubeconfig' };
  if (fromEnv.length > 0) return { files: fromEnv, why: 'KUBECONFIG' };
  if (fs.existsSync(homeConfig)) return { files: [homeConfig], why: '~/.kube/config' };
  return undefined;
}

/**
 * A cheap fingerprint of what resolveClusterSource would read (which files, their size and
 * mtime, the context asked for): when it changes, the cluster must be resolved again.
 */
export function clusterSourceFingerprint(opts: SourceOptions = {}): string {
  const env = opts.env ?? process.env;
  const home = path.join(opts.home ?? os.homedir(), '.kube', 'config');
  const stat = (f: string): string => {
    try {
      const st = fs.statSync(f);
      return `${f}@${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return `${f}@missing`;
    }
  };
  const choice = chooseKubeconfig(opts);
  return JSON.stringify([
    choice?.why ?? 'none',
    (choice?.files ?? [home]).map(stat),
    opts.context ?? env.MESHDX_CONTEXT ?? '',
    env.KUBERNETES_SERVICE_HOST ?? '',
  ]);
}

/**
 * Chooses the cluster, in order: an explicit kubeconfig (option, or KUBECONFIG: every file of a
 * KUBECONFIG list, merged as kubectl does), ~/.kube/config, the in-cluster service account.
 * Returns null when none is there: the caller then starts the simulator (the demo) or reports
 * NO_CLUSTER.
 */
export function resolveClusterSource(opts: SourceOptions = {}): ClusterSource | null {
  const env = opts.env ?? process.env;
  const context = opts.context ?? env.MESHDX_CONTEXT;
  const choice = chooseKubeconfig(opts);

  if (choice) {
    const kc = loadKubeconfigFiles(choice.files, context, choice.why);
    const ctx = kc.getCurrentContext();
    const scenario = opts.simulatedScenario ?? env.MESHDX_SIMULATED;
    return {
      kind: scenario ? 'simulator' : 'kubeconfig',
      kc,
      label: scenario ? `simulated: ${scenario}` : ctx,
      context: ctx,
      kubeconfigPath: choice.files.filter((f) => fs.existsSync(f)).join(path.delimiter),
      server: kc.getCurrentCluster()?.server ?? '',
    };
  }

  const saRoot = opts.serviceAccountRoot ?? '';
  if (env.KUBERNETES_SERVICE_HOST && fs.existsSync(`${saRoot}${SA_DIR}/token`)) {
    const kc = new KubeConfig();
    kc.loadFromCluster(saRoot);
    return {
      kind: 'in-cluster',
      kc,
      label: 'in-cluster',
      server: kc.getCurrentCluster()?.server ?? '',
    };
  }
  return null;
}
