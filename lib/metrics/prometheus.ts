import { excerptOf } from '../parse-problem';
import { SampleSyntaxError, lexSampleLine } from './sample-line';
import type {
  MetricFamily,
  MetricType,
  MetricsProblem,
  PrometheusParseResult,
  Sample,
} from './types';

const TYPES: ReadonlySet<MetricType> = new Set<MetricType>([
  'counter',
  'gauge',
  'histogram',
  'summary',
  'untyped',
  'gaugehistogram',
  'info',
  'stateset',
  'unknown',
]);

/** Suffixes a sample may add to its family name, per family type. */
const SUFFIXES: Partial<Record<MetricType, string[]>> = {
  histogram: ['_bucket', '_sum', '_count', '_created'],
  gaugehistogram: ['_bucket', '_gsum', '_gcount'],
  summary: ['_sum', '_count', '_created'],
  counter: ['_total', '_created'],
  info: ['_info'],
};

function unescapeHelp(s: string): string {
  return s.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}

const ALL_SUFFIXES = [...new Set(Object.values(SUFFIXES).flat())];

/** The family a sample name belongs to, given the families declared so far. */
export function familyOf(name: string, families: Record<string, MetricFamily>): string | undefined {
  if (families[name]) return name;
  for (const suffix of ALL_SUFFIXES) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const f = families[base];
    if (f && (SUFFIXES[f.type] ?? []).includes(suffix)) return base;
  }
  return undefined;
}

function family(families: Record<string, MetricFamily>, name: string): MetricFamily {
  const f = families[name] ?? { name, type: 'untyped' };
  families[name] = f;
  return f;
}

/** Handles a `#` line; returns an error message for a malformed HELP/TYPE, else null. */
function readComment(text: string, families: Record<string, MetricFamily>): string | null {
  const m = /^#\s*(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(text);
  if (!m) return null; // plain comment (also `# EOF`)
  const [, kind, name = '', rest = ''] = m;
  if (kind === 'HELP') {
    family(families, name).help = unescapeHelp(rest);
    return null;
  }
  const type = rest.trim().toLowerCase() as MetricType;
  if (!TYPES.has(type)) return `unknown metric type "${rest.trim()}" for ${name}`;
  family(families, name).type = type;
  return null;
}

/**
 * Parses the Prometheus text exposition format (what Envoy's /stats/prometheus and
 * pilot-agent's merged :15020/stats/prometheus serve). Never throws: a bad line becomes an
 * entry in `errors` with its line number and column, and parsing carries on.
 */
export function parsePrometheusText(input: string): PrometheusParseResult {
  const samples: Sample[] = [];
  const families: Record<string, MetricFamily> = {};
  const errors: MetricsProblem[] = [];
  const counts = { lines: 0, samples: 0, comments: 0, blank: 0, errors: 0 };
  const lines = input.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    counts.lines++;
    const trimmed = text.trim();
    if (trimmed === '') {
      counts.blank++;
      return;
    }
    if (trimmed.startsWith('#')) {
      const problem = readComment(trimmed, families);
      if (problem) {
        counts.errors++;
        errors.push({
          line,
          reason: 'bad-comment',
          message: problem,
          excerpt: excerptOf(text, 200),
        });
      } else counts.comments++;
      return;
    }
    try {
      const lexed = lexSampleLine(text.replace(/^[ \t]+/, ''));
      const s: Sample = { ...lexed, line };
      const fam = familyOf(s.name, families);
      if (fam) s.family = fam;
      samples.push(s);
      counts.samples++;
    } catch (err) {
      counts.errors++;
      const indent = text.length - text.replace(/^[ \t]+/, '').length;
      const column = err instanceof SampleSyntaxError ? err.column + indent : undefined;
      const message = err instanceof Error ? err.message : String(err);
      errors.push({ line, column, reason: 'bad-sample', message, excerpt: excerptOf(text, 200) });
    }
  });
  return { samples, families, errors, counts };
}
