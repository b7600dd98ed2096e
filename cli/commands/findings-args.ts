/**
 * The options of `meshdx findings`, read into what the command needs (its USAGE says them).
 */
import { namespaceProblem } from '../../lib/refs/ref-error';
import { parseSuppressRule, type SuppressRule } from '../../lib/findings/suppress';
import type { IstiodVersions } from '../../lib/findings/istiod';
import { givenIstiodVersion } from './findings-istiod';

/** The input limit of --max-mb when not given (MiB). */
export const DEFAULT_MAX_MB = 64;

export type FindingsFormat = 'text' | 'json' | 'sarif';

export interface FindingsArgs {
  paths: string[];
  format: FindingsFormat;
  suppress: SuppressRule[];
  warnings: string[];
  maxMb: number;
  meshConfig: string | null;
  istiod: IstiodVersions | null;
  /** --namespace: the namespaces whose findings are reported (null: every one). */
  namespaces: ReadonlySet<string> | null;
  /** --from-cluster: the PATHs hold a cluster's objects as its API server gave them. */
  fromCluster: boolean;
}

export function parseFindingsArgs(argv: string[]): FindingsArgs | string {
  const paths: string[] = [];
  let format: FindingsFormat = 'text';
  let maxMb = DEFAULT_MAX_MB;
  let meshConfig: string | null = null;
  let istiod: IstiodVersions | null = null;
  const suppress: SuppressRule[] = [];
  const warnings: string[] = [];
  const namespaces = new Set<string>();
  let fromCluster = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    // `--` ends the options: a PATH named `-x` goes after it
    if (arg === '--') {
      paths.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const a = eq > 0 ? arg.slice(0, eq) : arg;
    /** The option's value: after `=`, else the next argument (undefined when none). */
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    if (a === '--json') {
      if (eq > 0) return '--json takes no value';
      format = 'json';
    } else if (a === '--format') {
      const v = value();
      if (v !== 'text' && v !== 'json' && v !== 'sarif') {
        return `--format needs text, json or sarif${v === undefined ? '' : ` (not ${JSON.stringify(v)})`}`;
      }
      format = v;
    } else if (a === '--suppress' || a === '-S') {
      const v = value();
      if (v === undefined || v.startsWith('--')) return `${a} needs CODE=RESOURCE`;
      const r = parseSuppressRule(v);
      if ('error' in r) return `${a} ${r.error}`;
      suppress.push(r.rule);
      if (r.warning !== undefined) warnings.push(r.warning);
    } else if (a === '--mesh-config') {
      const v = value();
      if (!v || v.startsWith('--')) return '--mesh-config needs a FILE';
      meshConfig = v;
    } else if (a === '--istiod-version') {
      const v = givenIstiodVersion(value() ?? '');
      if (typeof v === 'string') return v;
      istiod = v;
    } else if (a === '--namespace' || a === '-n') {
      const v = value();
      if (v === undefined || v.startsWith('-')) return `${a} needs a NAMESPACE`;
      const bad = namespaceProblem(v);
      if (bad) return `${a}: ${bad}`;
      namespaces.add(v);
    } else if (a === '--from-cluster') {
      if (eq > 0) return '--from-cluster takes no value';
      fromCluster = true;
    } else if (a === '--max-mb') {
      const v = Number(value());
      if (!Number.isFinite(v) || v <= 0) return '--max-mb needs a positive number of MiB';
      maxMb = v;
    } else if (a.startsWith('-') && a !== '-') return `unknown option ${a}`;
    else paths.push(a);
  }
  if (paths.length === 0) return 'expected at least one PATH';
  return {
    paths,
    format,
    maxMb,
    meshConfig,
    istiod,
    suppress,
    warnings,
    namespaces: namespaces.size > 0 ? namespaces : null,
    fromCluster,
  };
}
