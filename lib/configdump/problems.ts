import type { ParseProblem } from '../parse-problem';
import type { DumpError } from './types';

/** A dump error in the one parse-problem shape (line 0: the position is not known). */
export interface DumpProblem extends ParseProblem {
  code: DumpError['code'];
  path: string | null;
}

export function dumpProblems(errors: readonly DumpError[]): DumpProblem[] {
  return errors.map((e) => ({
    line: e.line ?? 0,
    ...(e.column !== undefined ? { column: e.column } : {}),
    reason: e.message,
    code: e.code,
    path: e.path ?? null,
  }));
}
