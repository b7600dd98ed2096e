import path from 'node:path';
import type { CliCommand, CliIO, InputLimits } from '../io';
import { depthError, EXIT_FAIL, EXIT_OK, EXIT_USAGE, limitsOf, readDocument } from '../io';
import { groupFindings, withHarmSeverity } from '../../lib/findings/group';
import { findingJson, formatGroups, suppressedText } from './findings-text';
import { parseManifestText, type Unreadable } from '../../lib/findings/input';
import { manifestFindings } from '../../lib/findings/manifest';
import {
  annotationIndexOfRaw,
  applySuppressions,
  SUPPRESS_ANNOTATION,
} from '../../lib/findings/suppress';
import { guessInputKind, inputKindHint } from '../../lib/findings/input-kind';
import { objectLocator, toSarif } from '../../lib/findings/sarif';
import packageJson from '../../package.json';
import { splitMeshConfigs, type FoundMeshConfig } from '../../lib/findings/mesh-config';
import { parseMeshConfig } from '../../lib/timeline/meshconfig';
import { DEFAULT_ROOT_NAMESPACE } from '../../lib/scoping/visibility';
import { archiveInputKind } from './archive-input';
import { compareWithAnalyze, type AnalyzeMessage } from '../../lib/archive/analyze';
import { isJsonObject } from '../../lib/json-object';
import { codesNotChecked } from '../../lib/findings/claims';
import { analyzeJson, analyzeText, archiveManifests } from './findings-archive';
import { cliIstiod, findingIstio, istiodJson, istiodText } from './findings-istiod';
import { judgeByIstiod } from '../../lib/findings/istiod-report';
import { parseFindingsArgs } from './findings-args';
import type { Finding } from '../../lib/findings/types';
import { expand, FindingsInputError, readFile } from './findings-sources';

/** What `meshdx findings --help` prints, and what a wrong use is told. */
export const USAGE =
  'usage: meshdx findings PATH... [--json] [--max-mb N] [--mesh-config FILE] [--istiod-version V] [--suppress CODE=RESOURCE]...\n' +
  '    [--namespace N]... [--from-cluster]\n' +
  '  PATH "-" reads standard input. --format text|json|sarif (--json = --format json): SARIF 2.1.0\n' +
  '    places each finding on the file and line of its object, for CI code scanning.\n' +
  '  --suppress, -S CODE=RESOURCE: as istioctl analyze, e.g. "IST0103=Pod mypod.testing" or\n' +
  '    "IST0103=Pod *.testing" (* matches anything); repeatable. The annotation\n' +
  `    ${SUPPRESS_ANNOTATION}: "CODE,CODE" (or "*") on an object silences its findings too.\n` +
  '  --mesh-config FILE: the mesh config (a bare mesh config, the istio ConfigMap, or an IstioOperator);\n' +
  '    without it, the first one among the PATHs is used. Its rootNamespace is where a Sidecar\n' +
  '    without selector applies mesh-wide (default istio-system).\n' +
  '  --istiod-version V: judge each finding against istiod V (1.24, 1.27.0-beta.1); without it, the\n' +
  '    istiod Pods or Deployment among the PATHs, else unknown. Findings not for it are listed apart.\n' +
  '  --namespace, -n N: report the findings of objects in N (repeatable), of the Namespace N, and of\n' +
  '    cluster-scoped objects; every object is still read, so references across namespaces hold.\n' +
  "  --from-cluster: the PATHs hold a cluster's objects as its API server gave them (kubectl get):\n" +
  "    istioctl's defaults for files (a stand-in ingress gateway) are not added; Secrets not read.\n";

export type ReadStdin = (maxBytes: number) => Promise<{ text: string } | { tooLarge: true }>;

/** Standard input, read until its end or past maxBytes (then abandoned). */
const readProcessStdin: ReadStdin = async (maxBytes) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (size > maxBytes) return { tooLarge: true };
    chunks.push(b);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
};

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * `meshdx findings PATH... [--json]`: every check that needs no live proxy, on manifests (files,
 * folders, multi-document YAML, kubectl -o yaml|json output, `-` for standard input).
 */
export async function runWith(argv: string[], io: CliIO, readStdin: ReadStdin): Promise<number> {
  const args = parseFindingsArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`meshdx findings: ${args}\n${USAGE}`);
    return EXIT_USAGE;
  }
  for (const w of args.warnings) io.stderr(`meshdx findings: warning: ${w}\n`);
  const maxBytes = Math.floor(args.maxMb * 1024 * 1024);
  const objects: unknown[] = [];
  const origins: string[] = [];
  const unreadable: Unreadable[] = [];
  let total = 0;
  let files = 0;
  /** `istioctl analyze`'s messages in the archives given, to hold beside meshdx's findings. */
  let analyzed: AnalyzeMessage[] | null = null;
  /** Paths that are bug-report archives: a cluster's own objects, not files to add defaults to. */
  let archives = 0;
  try {
    for (const p of args.paths) {
      const texts: { file: string; text: () => Promise<string> }[] = [];
      if (p === '-') {
        texts.push({
          file: '(stdin)',
          text: async () => {
            const r = await readStdin(maxBytes - total);
            if ('tooLarge' in r) {
              throw new FindingsInputError(
                `standard input is larger than the input limit of ${mib(maxBytes)} (--max-mb N raises it)`,
              );
            }
            return r.text;
          },
        });
      } else if (archiveInputKind(path.resolve(io.cwd, p)) !== null) {
        // a bug-report archive: the manifests of its cluster/ files (resources, CRs)
        const a = await archiveManifests(io, p);
        if (!a) return EXIT_USAGE;
        archives += 1;
        texts.push(...a.texts);
        if (a.analyzed) analyzed = [...(analyzed ?? []), ...a.analyzed];
      } else {
        const found = expand(p, io.cwd);
        if (found.length === 0) {
          unreadable.push({
            file: p,
            line: 0,
            reason: 'no-manifests',
            message: 'folder has no *.yaml, *.yml or *.json file',
          });
        }
        for (const s of found) {
          total += s.size;
          if (total > maxBytes) {
            throw new FindingsInputError(
              `${s.file}: the input reaches ${mib(total)}, over the limit of ${mib(maxBytes)} (--max-mb N raises it)`,
            );
          }
          texts.push({ file: s.file, text: async () => readFile(s.file, io.cwd) });
        }
      }
      for (const t of texts) {
        const text = await t.text();
        if (t.file === '(stdin)') total += Buffer.byteLength(text);
        files += 1;
        // refused before any parser recurses into it, or reads binary data as one string
        const deep = depthError(t.file, text, limitsOf(io));
        if (deep) throw new FindingsInputError(deep);
        const head = text.slice(0, 64 * 1024); // read as UTF-8: bytes that are not show as U+FFFD
        if (head.includes('\u0000') || head.includes('\ufffd'))
          throw new FindingsInputError(`${t.file} is binary data, not a JSON or YAML text`);
        // a config dump, an access log...: say what it looks like and which command reads it
        const guess = guessInputKind(text);
        if (guess !== null) {
          unreadable.push({
            file: t.file,
            line: 0,
            reason: 'other-kind',
            message: `not Kubernetes manifests; ${inputKindHint(guess, t.file)}`,
          });
          continue;
        }
        const parsed = parseManifestText(text, t.file);
        if (parsed.objects.length === 0 && parsed.unreadable.length === 0) {
          unreadable.push({
            file: t.file,
            line: 0,
            reason: 'no-objects',
            message: 'no Kubernetes object in it',
          });
        }
        unreadable.push(...parsed.unreadable);
        for (const o of parsed.objects) {
          objects.push(o.object);
          origins.push(o.origin);
        }
      }
    }
  } catch (e) {
    if (!(e instanceof FindingsInputError)) throw e;
    io.stderr(`meshdx findings: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (objects.length === 0) {
    const why = unreadable
      .map((u) => `  ${u.file}${u.line ? `:${u.line}` : ''}: ${u.message}`)
      .join('\n');
    io.stderr(`meshdx findings: nothing readable in ${args.paths.join(' ')}\n${why}\n`);
    return EXIT_USAGE;
  }
  const split = splitMeshConfigs(objects, origins);
  let given: FoundMeshConfig | null = null;
  if (args.meshConfig !== null) {
    const read = readGivenMeshConfig(args.meshConfig, io.cwd, limitsOf(io));
    if (typeof read === 'string') {
      io.stderr(`meshdx findings: --mesh-config ${read}\n`);
      return EXIT_USAGE;
    }
    given = read;
  }
  const mesh = given ?? split.found[0] ?? null;
  // a ConfigMap's errors are placed inside its mesh text (the message says where); a
  // --mesh-config file's are placed in the file
  for (const e of mesh?.errors ?? [])
    unreadable.push({
      file: mesh?.origin ?? '',
      ...(mesh === given ? { line: e.line, column: e.column } : { line: 0 }),
      reason: e.reason,
      message: `mesh config: ${e.message}`,
    });
  const rootNamespace = mesh?.settings.rootNamespace ?? DEFAULT_ROOT_NAMESPACE;
  if (split.objects.length === 0) {
    io.stderr(
      `meshdx findings: no Kubernetes object in ${args.paths.join(' ')}, only a mesh config\n`,
    );
    return EXIT_USAGE;
  }
  // a bug-report archive, or objects as the API server gave them (kubectl get): a cluster
  const onlyArchives = archives === args.paths.length || args.fromCluster;
  const hasSecrets = split.objects.some((o) => isJsonObject(o) && o.kind === 'Secret');
  const result = manifestFindings(split.objects, {
    origins: split.origins,
    rootNamespace,
    // istioctl bug-report leaves Secrets out: the checks that need them cannot judge an archive
    ...(onlyArchives && !hasSecrets
      ? { kindsUnknown: { Secret: 'an istioctl bug-report archive holds no Secrets' } }
      : {}),
    given: {
      // istioctl adds its file defaults (a stand-in ingress gateway) to files, not to a cluster
      input: onlyArchives ? 'cluster' : 'files',
      ...(mesh ? { meshConfig: mesh.mesh ?? {} } : {}),
      ...(split.networks[0] ? { meshNetworks: split.networks[0].value } : {}),
    },
  });
  const all = inNamespaces(result.findings, args.namespaces);
  const notChecked = new Set(codesNotChecked(result.screened));
  const silenced = applySuppressions(all, args.suppress, annotationIndexOfRaw(split.objects));
  // one severity per finding, the one its group gives it (exposure without harm is info), as
  // the dashboard's lists show it: the text, JSON and SARIF outputs agree with them
  // judged against istiod: a finding of a code not for it is listed apart, in no count
  const judged = judgeByIstiod(
    withHarmSeverity(silenced.kept),
    cliIstiod(args.istiod, result.screened),
  );
  const findings = judged.findings;
  const groups = groupFindings(findings);
  const errors = findings.filter((f) => f.severity === 'error').length;
  if (args.format === 'sarif') {
    const locate = objectLocator(split.objects, split.origins);
    const log = toSarif({
      findings,
      silenced: silenced.silenced,
      istiod: judged.istiod,
      locate: (f) => locate(f.subject),
      version: meshdxVersion(),
    });
    io.stdout(`${JSON.stringify(log, null, 2)}\n`);
  } else if (args.format === 'json') {
    const out = {
      findings: findings.map((f) => ({
        ...findingJson(f),
        istio: findingIstio(f.code, judged.istiod),
      })),
      unreadable,
      groups,
      meshConfig: mesh ? { origin: mesh.origin, rootNamespace } : null,
      istiod: istiodJson(judged.istiod, findingJson),
      suppressed: { count: silenced.suppressed, by: silenced.counts },
      summary: {
        files,
        objects: split.objects.length,
        findings: findings.length,
        errors,
        notForIstiod: judged.istiod.notApplicable.length,
      },
      ...(analyzed
        ? { istioctlAnalyze: analyzeJson(compareWithAnalyze(findings, analyzed, notChecked)) }
        : {}),
    };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    io.stdout(formatGroups(groups));
    io.stdout(
      `${findings.length} findings in ${groups.length} groups (${errors} errors) from ${split.objects.length} objects in ${files} files\n`,
    );
    if (mesh) io.stdout(`mesh config: ${mesh.origin} (root namespace ${rootNamespace})\n`);
    io.stdout(istiodText(judged.istiod));
    if (silenced.suppressed > 0) io.stdout(suppressedText(silenced.suppressed, silenced.counts));
    if (analyzed) io.stdout(analyzeText(compareWithAnalyze(findings, analyzed, notChecked)));
  }
  if (unreadable.length > 0) {
    io.stderr(`meshdx findings: ${unreadable.length} part(s) could not be read:\n`);
    for (const u of unreadable.slice(0, 20)) {
      io.stderr(`  ${u.file}${u.line ? `:${u.line}` : ''}: ${u.message}\n`);
    }
  }
  return errors > 0 ? EXIT_FAIL : EXIT_OK;
}

/**
 * The findings --namespace asks for: those of objects in the namespaces, and of the Namespaces
 * themselves; a cluster-scoped object's (a webhook, a CRD) stays, since it acts on every namespace.
 */
function inNamespaces(findings: Finding[], namespaces: ReadonlySet<string> | null): Finding[] {
  if (namespaces === null) return findings;
  return findings.filter((f) =>
    f.subject.namespace !== undefined && f.subject.namespace !== ''
      ? namespaces.has(f.subject.namespace)
      : f.subject.kind !== 'Namespace' || namespaces.has(f.subject.name),
  );
}

/** meshdx's version, from its package.json (for the SARIF tool driver). */
function meshdxVersion(): string {
  return packageJson.version;
}

/** The --mesh-config file's mesh config, or why it cannot be used (the file named as given). */
function readGivenMeshConfig(
  file: string,
  cwd: string,
  limits: InputLimits,
): FoundMeshConfig | string {
  const resolved = path.resolve(cwd, file);
  const read = readDocument(resolved, limits);
  if ('error' in read) return read.error.replaceAll(resolved, file);
  const deep = depthError(file, read.text, limits);
  if (deep) return deep;
  const r = parseMeshConfig(read.text);
  const first = r.errors[0];
  if (r.settings.from === 'none')
    return `${file}: ${first ? `${first.line}:${first.column}: ${first.message}` : 'no mesh config in it'}`;
  return {
    origin: file,
    settings: r.settings,
    errors: r.errors,
    ...(r.mesh ? { mesh: r.mesh } : {}),
  };
}

export const run: CliCommand = (argv, io) => runWith(argv, io, readProcessStdin);
