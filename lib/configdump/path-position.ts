/**
 * Where values sit in a JSON text, by the path meshdx names them with in its messages
 * (`configs[1].dynamic_active_clusters[7]`, `workloads.net1/10.0.0.1`: `.key` for object
 * members, `[i]` for list items, no leading dot at the top). One pass over the text for all
 * the wanted paths, without building the document; the text is assumed to be valid JSON
 * whose depth was already checked.
 */
interface Frame {
  list: boolean;
  path: string;
  index: number;
  key: string;
  expectKey: boolean;
}

/** 1-based line and column of each wanted path found. */
export function locatePaths(
  text: string,
  wanted: ReadonlySet<string>,
): Map<string, { line: number; column: number }> {
  const offsets = new Map<string, number>();
  if (wanted.size === 0) return new Map();
  const stack: Frame[] = [];
  const here = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.list) return `${top.path}[${top.index}]`;
    return top.path === '' ? top.key : `${top.path}.${top.key}`;
  };
  const note = (at: number) => {
    const p = here();
    if (wanted.has(p) && !offsets.has(p)) offsets.set(p, at);
  };
  const n = text.length;
  let i = 0;
  while (i < n && offsets.size < wanted.size) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 58 /* : */) {
      i++;
    } else if (c === 123 || c === 91) {
      note(i);
      stack.push({ list: c === 91, path: here(), index: 0, key: '', expectKey: c === 123 });
      i++;
    } else if (c === 125 || c === 93) {
      stack.pop();
      i++;
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.list) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === 34 /* " */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top && !top.list && top.expectKey) {
        try {
          top.key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          top.key = text.slice(i + 1, j);
        }
        top.expectKey = false;
      } else note(i);
      i = j + 1;
    } else {
      note(i);
      while (i < n && !/[\s,}\]]/.test(text[i] as string)) i++;
    }
  }
  // offsets to line/column in one pass, in text order
  const out = new Map<string, { line: number; column: number }>();
  const sorted = [...offsets].sort((a, b) => a[1] - b[1]);
  let line = 1;
  let lineStart = 0;
  let k = 0;
  for (const [path, at] of sorted) {
    for (; k < at; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    out.set(path, { line, column: at - lineStart + 1 });
  }
  return out;
}
