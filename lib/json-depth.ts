/** Where a text first goes deeper than the limit: its 1-based line and column, and the depth. */
export interface DeepNesting {
  line: number;
  column: number;
  depth: number;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const DASH = 45;
const QUESTION = 63;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * A cheap scan for nesting depth, before any parser recurses into a document. It counts the
 * collections a recursive parser would descend into:
 * - `{` and `[` outside double-quoted strings (JSON, and YAML's flow collections);
 * - YAML block collections: each deeper indentation of a line opens one, and so does each
 *   compact entry (`- - - x`, `? `) on a line, so that `- ` repeated 100,000 times on one line,
 *   or 20,000 lines each indented one space more, are found as well as `[[[[...`.
 * Lines inside a flow collection (all of a pretty-printed JSON document) do not count by their
 * indentation: only their brackets do. Returns where the text first goes deeper than
 * `maxDepth`, or null. Linear; what it keeps is bounded by maxDepth: safe on any input size.
 */
export function findDeepNesting(text: string, maxDepth: number): DeepNesting | null {
  let flow = 0;
  let blockAtFlow = 0; // block collections open where the outermost flow collection opened
  let inString = false;
  let line = 1;
  let lineStart = 0;
  // the columns of the YAML block collections open at the current line, outermost first
  const block: number[] = [];
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    if (atLineStart) {
      atLineStart = false;
      if (flow === 0) {
        const deep = measureBlockLine(text, i, block, maxDepth);
        if (deep) return { line, column: deep.column, depth: deep.depth };
      }
    }
    const c = text.charCodeAt(i);
    if (c === NL) {
      line++;
      lineStart = i + 1;
      inString = false; // a raw newline ends any JSON string (a YAML one too, for this count)
      atLineStart = true;
      continue;
    }
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (flow === 0) blockAtFlow = block.length;
      const depth = blockAtFlow + ++flow;
      if (depth > maxDepth) return { line, column: i - lineStart + 1, depth };
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && flow > 0) flow--;
  }
  return null;
}

/**
 * Updates the open block collections for the line starting at `start` (outside any flow
 * collection): its indentation closes the deeper ones and opens one, each compact `- ` or `? `
 * entry opens one more. A line whose content is a flow collection leaves that level to the
 * bracket count. Blank and comment lines change nothing. Returns where the limit is passed.
 */
function measureBlockLine(
  text: string,
  start: number,
  block: number[],
  maxDepth: number,
): { column: number; depth: number } | null {
  let j = start;
  while (j < text.length && text.charCodeAt(j) === SPACE) j++;
  const first = text.charCodeAt(j);
  if (j >= text.length || first === NL || first === CR || first === HASH) return null;
  const indent = j - start;
  while (block.length > 0 && (block[block.length - 1] as number) >= indent) block.pop();
  let content = j;
  const levels = [indent];
  for (;;) {
    const c = text.charCodeAt(content);
    if ((c !== DASH && c !== QUESTION) || text.charCodeAt(content + 1) !== SPACE) break;
    content += 2;
    while (text.charCodeAt(content) === SPACE) content++;
    levels.push(content - start);
    if (block.length + levels.length > maxDepth + 1) break; // enough to say it is too deep
  }
  const c = text.charCodeAt(content);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) levels.pop();
  for (const level of levels) {
    block.push(level);
    if (block.length > maxDepth) return { column: level + 1, depth: block.length };
  }
  return null;
}
