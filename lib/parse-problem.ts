/**
 * The one shape of a parse problem, for every parser meshdx has (access logs, config dumps,
 * Prometheus text, pod histories, mesh config, JSON streams, Envoy format strings): where it is,
 * why (a code a program can branch on) and what a human reads. Parsers narrow `reason` to their
 * own codes and may add fields (the path inside a document, the log it came from) but always
 * carry these.
 */
export interface ParseProblem {
  /** 1-based line in the input; 0 when the problem is about the input as a whole. */
  line: number;
  /** 1-based column, when known. */
  column?: number;
  /** Why, as a stable code (`truncated`, `too-deep`, `syntax`, ...). */
  reason: string;
  /** Why, as a sentence that names the problem (what was found, what was expected). */
  message: string;
  /** The start of the offending text, for a human to recognise it. */
  excerpt?: string;
}

/** At most `max` characters of a text, on one line, for ParseProblem.excerpt. */
export function excerptOf(text: string, max = 120): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** 1-based line and column of a character offset in a text. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Where a problem is, as a reader says it: `line 3, column 7`, or '' for the whole input. */
export function problemPosition(p: Pick<ParseProblem, 'line' | 'column'>): string {
  if (p.line <= 0) return '';
  return p.column !== undefined ? `line ${p.line}, column ${p.column}` : `line ${p.line}`;
}

/** One line for a terminal or a list: `line 3, column 7: message: excerpt`. */
export function problemText(p: ParseProblem): string {
  const at = problemPosition(p);
  const text = at ? `${at}: ${p.message}` : p.message;
  return p.excerpt ? `${text}: ${p.excerpt}` : text;
}
