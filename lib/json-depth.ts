/**
 * A cheap scan for nesting depth, before any parser recurses into a document: `{` and `[`
 * outside double-quoted strings (JSON, and YAML's flow collections). Returns where the text
 * first goes deeper than `maxDepth`, or null. Linear, no allocation: safe on any input size.
 */
export function findDeepNesting(
  text: string,
  maxDepth: number,
): { line: number; column: number; depth: number } | null {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
      inString = false; // a raw newline ends any JSON string (a YAML one too, for this count)
      continue;
    }
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return { line, column: i - lineStart + 1, depth };
    } else if ((c === 125 || c === 93) && depth > 0) depth--;
  }
  return null;
}
