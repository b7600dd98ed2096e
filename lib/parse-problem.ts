/**
 * The one shape of a parse problem, for every parser meshdx has (access logs, config dumps,
 * pod histories, JSON streams): where it is and why. Parsers may add fields of their own (a
 * machine-readable code, a message, a path inside a document) but always carry these.
 */
export interface ParseProblem {
  /** 1-based line in the input; 0 when the problem is about the input as a whole. */
  line: number;
  /** 1-based column, when known. */
  column?: number;
  /** Why, short: a stable code (`truncated`, `too-deep`, ...) or a sentence. */
  reason: string;
  /** The start of the offending text, for a human to recognise it. */
  excerpt?: string;
}

/** At most `max` characters of a text, on one line, for ParseProblem.excerpt. */
export function excerptOf(text: string, max = 120): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
