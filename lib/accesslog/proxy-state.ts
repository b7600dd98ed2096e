import { createLineParser, type ParserOptions } from './parser';

/**
 * The parser's one piece of state across lines is whether a proxy log entry is open (an
 * indented line after it is a continuation, not an unreadable line). A reader that starts in
 * the middle of a log (one part of a log split between threads) needs that state as the lines
 * before its start left it.
 *
 * Each line either sets the state whatever it was (a proxy log line opens an entry, an
 * access-log record closes it) or leaves it as it was (blank lines, continuations, unreadable
 * lines; a line that reads as a record only when no entry is open leaves "closed" closed and
 * "open" open). So walking back from the start, the first line that gives the same state from
 * both starting states decides.
 *
 * `lines` are the complete lines before the start, in file order. Returns the state after the
 * last of them, or null when none of them decides (then look further back; at the start of
 * the log the state is false).
 */
export function proxyLogStateAfter(
  lines: readonly string[],
  options: Pick<ParserOptions, 'format' | 'onlyCustom'> = {},
): boolean | null {
  for (let k = lines.length - 1; k >= 0; k--) {
    const line = lines[k] as string;
    const fromClosed = stateAfterLine(line, false, options);
    if (fromClosed === stateAfterLine(line, true, options)) return fromClosed;
  }
  return null;
}

function stateAfterLine(
  line: string,
  before: boolean,
  options: Pick<ParserOptions, 'format' | 'onlyCustom'>,
): boolean {
  const parser = createLineParser({ ...options, initialInProxyLog: before });
  parser.push(line);
  return parser.inProxyLog;
}
