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

function loadKubeconfigFile(file: string, context: string | undefined, why: string): KubeConfig {
  if (!fs.existsSync(file)) {
    throw new ClusterConfigError(
      'KUBECONFIG_NOT_FOUND',
      `kubeconfig ${file} (${why}) does not exist`,
      'Point KUBECONFIG or --kubeconfig at an existing file, or unset it to use ~/.kube/config.',
    );
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(file);
  } catch (err) {
    throw new ClusterConfigError(
      'KUBECONFIG_INVALID',
      `kubeconfig ${file} (${why}) cannot be read: ${(err as Error).message}`,
      'Check the file with `kubectl config view --kubeconfig FILE`.',
    );
  }
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

/**
 * Chooses the cluster, in order: an explicit kubeconfig (option or KUBECONFIG; the first file
 * of a KUBECONFIG list), ~/.kube/config, the in-cluster service account. Returns null when none
 * is there: the caller then starts the simulator (the demo) or reports NO_CLUSTER.
 */
export function resolveClusterSource(opts: SourceOptions = {}): ClusterSource | null {
  const env = opts.env ?? process.env;
  const explicit = opts.kubeconfig ?? env.MESHDX_KUBECONFIG;
  const fromEnv = env.KUBECONFIG?.split(path.delimiter).find((p) => p.length > 0);
  const home = opts.home ?? os.homedir();
  const homeConfig = path.join(home, '.kube', 'config');
  const context = opts.context ?? env.MESHDX_CONTEXT;

  let file: string | undefined;
  let why = '';
  if (explicit) [file, why] = [explicit, '--kubeconfig'];
  else if (fromEnv) [file, why] = [fromEnv, 'KUBECONFIG'];
  else if (fs.existsSync(homeConfig)) [file, why] = [homeConfig, '~/.kube/config'];

  if (file) {
    const kc = loadKubeconfigFile(file, context, why);
    const ctx = kc.getCurrentContext();
    const scenario = opts.simulatedScenario ?? env.MESHDX_SIMULATED;
    return {
      kind: scenario ? 'simulator' : 'kubeconfig',
      kc,
      label: scenario ? `simulated: ${scenario}` : ctx,
      context: ctx,
      kubeconfigPath: file,
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
