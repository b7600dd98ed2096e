/**
 * Findings as a SARIF 2.1.0 log, so CI systems show them on the lines of the manifests: one rule
 * per code (from the catalog), one result per finding, located on the file and line of the object
 * it is about (`file:line` as the manifest reader records it). Suppressed findings are kept as
 * results with a suppression (inSource for the annotation, external for --suppress), as SARIF
 * wants them. Pure.
 */
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { catalogEntry } from './registry';
import { istioRangeText } from './istio-version';
import { istiodVersionText, istioVerdict, type IstiodVersions } from './istiod';
import type { Finding, Severity } from './types';
import { isJsonObject } from '../json-object';
import { subjectKey } from '../refs/object-ref';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** Where an object was read: its file (as the user named it) and line (1-based). */
export interface ObjectLocation {
  file: string;
  line: number;
}

/** `file:line` or `file:line items[3]` as lib/findings/input.ts records an origin. */
export function parseOrigin(origin: string): ObjectLocation | null {
  const m = /^(.*):(\d+)(?: .*|\[\d+\].*)?$/.exec(origin);
  if (m === null) return null;
  const line = Number(m[2]);
  return { file: m[1] as string, line: line > 0 ? line : 1 };
}

const LEVEL: Readonly<Record<Severity, Result.level>> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

const subjectText = (s: Finding['subject']) =>
  `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;

function messageOf(f: Finding): string {
  const part = f.part ? ` [${f.part.kind} ${f.part.name}]` : '';
  const facts = Object.entries(f.evidence)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const why = f.fix?.why ? ` ${f.fix.why}` : '';
  return `${subjectText(f.subject)}${part}: ${catalogEntry(f.code)?.title ?? f.code}${facts ? ` (${facts})` : ''}.${why}`;
}

const istioRangeTextOf = (code: string) => {
  const e = catalogEntry(code);
  return e ? istioRangeText(e.istio) : 'versions unknown';
};

/** A file path as a SARIF artifact URI (relative, forward slashes, escaped). */
export function artifactUri(file: string): string {
  return encodeURI(file.split('\\').join('/'));
}

export interface SarifInput {
  findings: readonly Finding[];
  silenced?: readonly { finding: Finding; by: string }[];
  /** Where the subject of a finding was read, when it was read from a file. */
  locate: (f: Finding) => ObjectLocation | undefined;
  version: string;
  /**
   * The istiod judged against and the findings not for it: those are results suppressed
   * (external, "not for istiod X"), each rule and result says the Istio versions and verdict.
   */
  istiod?: IstiodVersions & { notApplicable: readonly Finding[] };
}

export function toSarif(input: SarifInput): Log {
  const istiod = input.istiod;
  const notFor = istiod ? `not for istiod ${istiodVersionText(istiod)}` : '';
  const all = [
    ...input.findings.map((finding) => ({ finding, by: null as string | null })),
    ...(input.silenced ?? []),
    ...(istiod?.notApplicable ?? []).map((finding) => ({
      finding,
      by: `${notFor} (${istioRangeTextOf(finding.code)})`,
    })),
  ];
  const codes = [...new Set(all.map((x) => x.finding.code))].sort();
  const rules: ReportingDescriptor[] = codes.map((code) => {
    const e = catalogEntry(code);
    return {
      id: code,
      name: e?.title ?? code,
      shortDescription: { text: e?.title ?? code },
      fullDescription: { text: e?.description ?? code },
      defaultConfiguration: { level: LEVEL[e?.severity ?? 'warning'] },
      ...(e ? { properties: { istioVersions: istioRangeText(e.istio), istio: e.istio } } : {}),
      ...(code.startsWith('IST')
        ? {
            helpUri: `https://istio.io/latest/docs/reference/config/analysis/${code.toLowerCase()}/`,
          }
        : {}),
    };
  });
  const results: Result[] = all.map(({ finding: f, by }) => {
    const at = input.locate(f);
    const e = catalogEntry(f.code);
    return {
      ruleId: f.code,
      ruleIndex: codes.indexOf(f.code),
      level: LEVEL[f.severity],
      message: { text: messageOf(f) },
      locations: [
        {
          ...(at
            ? {
                physicalLocation: {
                  artifactLocation: { uri: artifactUri(at.file) },
                  region: { startLine: at.line },
                },
              }
            : {}),
          logicalLocations: [{ fullyQualifiedName: subjectText(f.subject), kind: 'resource' }],
        },
      ],
      ...(istiod && e ? { properties: { istioVerdict: istioVerdict(e.istio, istiod) } } : {}),
      ...(by === null
        ? {}
        : {
            suppressions: [
              {
                kind: by.startsWith('annotation') ? ('inSource' as const) : ('external' as const),
                justification: by,
              },
            ],
          }),
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'meshdx',
            version: input.version,
            rules,
          },
        },
        ...(istiod
          ? {
              properties: {
                istiod:
                  istiod.releases.length > 0
                    ? istiodVersionText(istiod)
                    : `unknown: ${istiod.unknown ?? 'not read'}`,
              },
            }
          : {}),
        results,
      },
    ],
  };
}

/**
 * Where each object was read (the `file:line:col` origins given beside the objects), looked up
 * by kind, namespace and name. An object without namespace is found under `default` too, where
 * the checks place it, and under none, when cluster-scoped; of two with the same kind,
 * namespace and name the first read wins.
 */
export function objectLocator(
  objects: readonly unknown[],
  origins: readonly string[],
): (subject: {
  kind: string;
  namespace?: string | null;
  name: string;
}) => ObjectLocation | undefined {
  const out = new Map<string, ObjectLocation>();
  objects.forEach((o, i) => {
    const at = parseOrigin(origins[i] ?? '');
    if (at === null || !isJsonObject(o) || typeof o.kind !== 'string') return;
    const m = isJsonObject(o.metadata) ? o.metadata : {};
    if (typeof m.name !== 'string') return;
    const ns = typeof m.namespace === 'string' ? m.namespace : undefined;
    for (const key of ns === undefined
      ? [subjectKey(o.kind, undefined, m.name), subjectKey(o.kind, 'default', m.name)]
      : [subjectKey(o.kind, ns, m.name)]) {
      if (!out.has(key)) out.set(key, at);
    }
  });
  return (s) => out.get(subjectKey(s.kind, s.namespace, s.name));
}
