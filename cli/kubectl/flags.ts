/**
 * kubectl's own flags, as `kubectl meshdx ...` receives them: kubectl hands a plugin every
 * argument after its name untouched, so the plugin reads the ones it passes on to kubectl
 * (--context, --kubeconfig, -n/--namespace, -A/--all-namespaces, and istioctl's
 * -i/--istio-namespace) and leaves the rest to the meshdx command. Pure.
 */
import { namespaceProblem } from '../../lib/refs/ref-error';

export interface KubectlFlags {
  context: string | null;
  kubeconfig: string | null;
  namespace: string | null;
  allNamespaces: boolean;
  /** Istio's root namespace: where the mesh config and istiod are (default istio-system). */
  istioNamespace: string;
  /** What is left for the meshdx command, in order. */
  rest: string[];
}

type Flag = 'context' | 'kubeconfig' | 'namespace' | 'istioNamespace';

const VALUED: Readonly<Record<string, Flag>> = {
  '--context': 'context',
  '--kubeconfig': 'kubeconfig',
  '--namespace': 'namespace',
  '-n': 'namespace',
  '--istio-namespace': 'istioNamespace',
  '--istioNamespace': 'istioNamespace',
  '-i': 'istioNamespace',
};

/** kubectl's flags out of `argv`, or what is wrong with them. */
export function readKubectlFlags(argv: readonly string[]): KubectlFlags | string {
  const out: KubectlFlags = {
    context: null,
    kubeconfig: null,
    namespace: null,
    allNamespaces: false,
    istioNamespace: 'istio-system',
    rest: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.rest.push(...argv.slice(i));
      break;
    }
    if (arg === '-A' || arg === '--all-namespaces') {
      out.allNamespaces = true;
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    // -nshop, as kubectl takes it
    const glued = /^-[ni]./.test(arg) && !arg.startsWith('--') ? arg.slice(0, 2) : null;
    const flag = VALUED[glued ?? name];
    if (flag === undefined) {
      out.rest.push(arg);
      continue;
    }
    const value = glued !== null ? arg.slice(2) : eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') return `${glued ?? name} needs a value`;
    if (flag === 'namespace' || flag === 'istioNamespace') {
      const bad = namespaceProblem(value);
      if (bad) return `${glued ?? name}: ${bad}`;
    }
    out[flag] = value;
  }
  if (out.allNamespaces && out.namespace !== null)
    return '-n/--namespace and -A/--all-namespaces name different scopes: give one';
  return out;
}

/** The flags kubectl itself takes before its verb: which kubeconfig and context. */
export function kubectlGlobalArgs(f: Pick<KubectlFlags, 'context' | 'kubeconfig'>): string[] {
  return [
    ...(f.kubeconfig !== null ? ['--kubeconfig', f.kubeconfig] : []),
    ...(f.context !== null ? ['--context', f.context] : []),
  ];
}
