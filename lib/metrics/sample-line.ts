import { parseFloatStrict } from './value';

export interface LexedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs?: number;
}

export class SampleSyntaxError extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

const NAME = /[a-zA-Z_:][a-zA-Z0-9_:]*/y;
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

/** Cursor over one line; every failure is a SampleSyntaxError with a 1-based column. */
class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  fail(message: string): never {
    throw new SampleSyntaxError(message, this.pos + 1);
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  blanks(): number {
    const start = this.pos;
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
    return this.pos - start;
  }
  match(re: RegExp): string | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }
  quoted(): string {
    if (this.peek() !== '"') this.fail("expected '\"'");
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '') this.fail('unterminated quoted string');
      this.pos++;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = ESCAPES[this.peek()];
      if (e === undefined) this.fail(`invalid escape sequence "\\${this.peek()}"`);
      out += e;
      this.pos++;
    }
  }
  token(): string {
    const start = this.pos;
    while (this.pos < this.text.length && this.peek() !== ' ' && this.peek() !== '\t') this.pos++;
    return this.text.slice(start, this.pos);
  }
}

/** Reads `{a="1",b="2"}` (also quoted UTF-8 names, and a quoted metric name inside braces). */
function readLabels(cur: Cursor, labels: Record<string, string>): string | null {
  let quotedName: string | null = null;
  cur.pos++; // '{'
  for (;;) {
    cur.blanks();
    if (cur.peek() === '}') {
      cur.pos++;
      return quotedName;
    }
    const at = cur.pos;
    const name = cur.peek() === '"' ? cur.quoted() : cur.match(LABEL_NAME);
    if (name === null) cur.fail('expected a label name');
    cur.blanks();
    if (cur.peek() !== '=') {
      if (cur.text[at] !== '"' || quotedName !== null || Object.keys(labels).length > 0) {
        cur.fail(`expected '=' after label name "${name}"`);
      }
      quotedName = name; // {"metric.name", label="v"}
    } else {
      cur.pos++;
      cur.blanks();
      if (name in labels) cur.fail(`duplicate label "${name}"`);
      labels[name] = cur.quoted();
    }
    cur.blanks();
    if (cur.peek() === ',') cur.pos++;
    else if (cur.peek() !== '}') cur.fail("expected ',' or '}' in label set");
  }
}

/** Parses one sample line of the Prometheus text format; throws SampleSyntaxError on bad input. */
export function lexSampleLine(text: string): LexedSample {
  const cur: Cursor = new Cursor(text);
  const labels: Record<string, string> = {};
  let name = cur.match(NAME);
  let gap = cur.blanks();
  if (cur.peek() === '{') {
    const inBraces = readLabels(cur, labels);
    if (inBraces !== null) {
      if (name !== null) cur.fail('metric name given twice');
      name = inBraces;
    }
    gap = cur.blanks();
  }
  if (name === null) cur.fail('expected a metric name');
  if (gap === 0) cur.fail('expected whitespace before the value');
  const valueAt = cur.pos;
  const rawValue = cur.token();
  if (rawValue === '') cur.fail('missing value');
  const value = parseFloatStrict(rawValue);
  if (value === null) {
    cur.pos = valueAt;
    cur.fail(`invalid value "${rawValue}"`);
  }
  cur.blanks();
  let timestampMs: number | undefined;
  if (cur.pos < text.length) {
    const tsAt = cur.pos;
    const rawTs = cur.token();
    if (!/^-?\d+$/.test(rawTs)) {
      cur.pos = tsAt;
      cur.fail(`invalid timestamp "${rawTs}"`);
    }
    timestampMs = Number(rawTs);
    cur.blanks();
    if (cur.pos < text.length) cur.fail('unexpected text after the timestamp');
  }
  return timestampMs === undefined ? { name, labels, value } : { name, labels, value, timestampMs };
}
