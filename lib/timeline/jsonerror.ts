/** Finds the offset of the first syntax error in a JSON text (Node 20's messages often lack it). */

const WS: ReadonlySet<string> = new Set([' ', '\t', '\n', '\r']);

export function jsonErrorOffset(s: string): number {
  let i = 0;
  const ws = () => {
    while (i < s.length && WS.has(s[i] as string)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const str = () => {
    i++;
    while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
    if (i >= s.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (s[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (s[i] !== '"') fail();
          str();
          ws();
          if (s[i] !== ':') fail();
          i++;
        }
        value();
        ws();
        if (s[i] === ',') i++;
        else if (s[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return str();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i, i + 40));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  try {
    value();
    ws();
    return i < s.length ? i : -1;
  } catch (at) {
    return typeof at === 'number' ? at : 0;
  }
}
