/** `meshdx gather --since`: the length of the window a gathered archive covers. */
import { parseDurationMs } from '../timeline/time';

/**
 * `--since` as a window length in ms: a Go duration (`30m`, `2h`, `1h30m`, `90s`), at least
 * one second; anything else an error naming the accepted forms.
 */
export function parseSince(text: string): { ms: number } | { error: string } {
  const ms = /^\d+(\.\d+)?$/.test(text.trim()) ? null : parseDurationMs(text);
  if (ms === null || !Number.isFinite(ms))
    return {
      error: `--since ${JSON.stringify(text)} is not a duration: use a number with a unit, such as 30m, 2h or 1h30m`,
    };
  if (ms < 1000) return { error: `--since ${JSON.stringify(text)} is shorter than one second` };
  return { ms };
}
