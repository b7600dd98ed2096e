import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** Where meshdx gets its cluster from, in the order it looks. */
export type ClusterSourceKind = 'kubeconfig' | 'in-cluster';

export interface ClusterSource {
  kind: ClusterSourceKind;
  /** A KubeConfig whose current context is this source's (each context gets its own). */
  kc: KubeConfig;
  /** What the header shows: the context name, or "in-cluster". */
  label: string;
  /** The context's name; "in-cluster" for the service account. */
  context: string;
  kubeconfigPath?: string;
  server: string;
  /** What makes this context's cluster and credentials what they are: a change means a new cluster. */
  identity: string;
}

/** The kubeconfig (or in-cluster account) meshdx reads, with every context it offers. */
export interface LoadedClusterConfig {
  kind: ClusterSourceKind;
  /** All contexts (merged as kubectl merges a KUBECONFIG list). */
  kc: KubeConfig;
  /** The context used when a request names none: MESHDX_CONTEXT, else current-context. */
  defaultContext: string;
  kubeconfigPath?: string;
}

/** One context as the context picker lists it. */
export interface ContextEntry {
  name: string;
  cluster: string;
  server: string;
  current: boolean;
}

/** A request named a context the kubeconfig does not have. */
export class UnknownContextError extends Error {
  override name = 'UnknownContextError';
  constructor(
    readonly context: string,
    readonly known: string[],
  ) {
    super(
      `context "${context}" is not in meshdx's kubeconfig; known contexts: ${known.join(', ') || 'none'}`,
    );
  }
}

export function isUnknownContextError(e: unknown): e is UnknownContextError {
  return (
    e instanceof Error &&
    e.name === 'UnknownContextError' &&
    Array.isArray((e as UnknownContextError).known)
  );
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

const IN_CLUSTER = 'in-cluster';

/**
 * Loads the cluster configuration, in order: an explicit kubeconfig (option, or KUBECONFIG: every
 * file of a KUBECONFIG list, merged as kubectl does), ~/.kube/config, the in-cluster service
 * account. Returns null when none is there (the caller reports NO_CLUSTER). The default context
 * (option or MESHDX_CONTEXT, else current-context) must exist: CONTEXT_MISSING otherwise.
 */
export function loadClusterConfig(opts: SourceOptions = {}): LoadedClusterConfig | null {
  const env = opts.env ?? process.env;
  const context = opts.context ?? env.MESHDX_CONTEXT;
  const choice = chooseKubeconfig(opts);
  if (choice) {
    const kc = loadKubeconfigFiles(choice.files, context, choice.why);
    return {
      kind: 'kubeconfig',
      kc,
      defaultContext: kc.getCurrentContext(),
      kubeconfigPath: choice.files.filter((f) => fs.existsSync(f)).join(path.delimiter),
    };
  }
  const saRoot = opts.serviceAccountRoot ?? '';
  if (env.KUBERNETES_SERVICE_HOST && fs.existsSync(`${saRoot}${SA_DIR}/token`)) {
    const kc = new KubeConfig();
    kc.loadFromCluster(saRoot);
    return { kind: 'in-cluster', kc, defaultContext: IN_CLUSTER };
  }
  return null;
}

/** The contexts of a loaded configuration (the single in-cluster one for a service account). */
export function listContexts(cfg: LoadedClusterConfig): ContextEntry[] {
  if (cfg.kind === 'in-cluster') {
    return [
      {
        name: IN_CLUSTER,
        cluster: IN_CLUSTER,
        server: cfg.kc.getCurrentCluster()?.server ?? '',
        current: true,
      },
    ];
  }
  return cfg.kc.getContexts().map((c) => ({
    name: c.name,
    cluster: c.cluster,
    server: cfg.kc.getCluster(c.cluster)?.server ?? '',
    current: c.name === cfg.defaultContext,
  }));
}

/** The source of one context (absent: the default one); an unknown name is UnknownContextError. */
export function contextSource(cfg: LoadedClusterConfig, name?: string | null): ClusterSource {
  const wanted = name ?? cfg.defaultContext;
  if (cfg.kind === 'in-cluster') {
    if (wanted !== IN_CLUSTER) throw new UnknownContextError(wanted, [IN_CLUSTER]);
    const server = cfg.kc.getCurrentCluster()?.server ?? '';
    return {
      kind: 'in-cluster',
      kc: cfg.kc,
      label: IN_CLUSTER,
      context: IN_CLUSTER,
      server,
      identity: JSON.stringify([IN_CLUSTER, server]),
    };
  }
  const ctx = cfg.kc.getContextObject(wanted);
  if (!ctx)
    throw new UnknownContextError(
      wanted,
      cfg.kc.getContexts().map((c) => c.name),
    );
  const clusterEntry = cfg.kc.getCluster(ctx.cluster);
  if (!clusterEntry) {
    throw new ClusterConfigError(
      'KUBECONFIG_INVALID',
      `context "${wanted}" in ${cfg.kubeconfigPath ?? 'the kubeconfig'} names a cluster that is not defined`,
      "Fix the context's cluster entry in the kubeconfig.",
    );
  }
  const user = ctx.user ? cfg.kc.getUser(ctx.user) : null;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [clusterEntry],
    users: user ? [user] : [],
    contexts: [ctx],
    currentContext: wanted,
  });
  return {
    kind: 'kubeconfig',
    kc,
    label: wanted,
    context: wanted,
    kubeconfigPath: cfg.kubeconfigPath,
    server: clusterEntry.server,
    identity: JSON.stringify([ctx, clusterEntry, user]),
  };
}

/** The default context's source, or null when no cluster is configured (the CLI, tests). */
export function resolveClusterSource(opts: SourceOptions = {}): ClusterSource | null {
  const cfg = loadClusterConfig(opts);
  return cfg ? contextSource(cfg) : null;
}

/** The source of a KubeConfig already loaded (its current context): tools and tests. */
export function sourceOfKubeConfig(kc: KubeConfig): ClusterSource {
  return contextSource({ kind: 'kubeconfig', kc, defaultContext: kc.getCurrentContext() });
}
