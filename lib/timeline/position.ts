/** Errors as data: a message with a 1-based line and column in the input text. */
export interface InputError {
  line: number;
  column: number;
  message: string;
}

/** 1-based line/column of a character offset in text. */
export function lineColAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastBreak = -1;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: end - lastBreak };
}
