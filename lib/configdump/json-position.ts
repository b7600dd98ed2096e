/**
 * Finds where JSON text first goes wrong, for error messages (V8's JSON.parse does not always
 * say). Returns the character offset and a short reason, or null when the text is valid JSON.
 */
export function findJsonError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (reason: string): never => {
    throw { offset: i, reason };
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const describe = () => (i >= text.length ? 'end of input' : `character '${text[i]}'`);
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 5;
        } else if ('"\\/bfnrt'.includes(text[i] ?? 'x')) i++;
        else fail('bad escape');
      } else if (c < ' ') fail('control character in string');
      else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail(`unexpected ${describe()}`);
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return members('}', true);
    if (c === '[') return members(']', false);
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  const members = (close: string, keyed: boolean): void => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      ws();
      if (keyed) {
        if (text[i] !== '"') fail(`expected a property name, got ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ':', got ${describe()}`);
        i++;
      }
      value();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail(`expected ',' or '${close}', got ${describe()}`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
    return null;
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'offset' in e && 'reason' in e) {
      return e as { offset: number; reason: string };
    }
    return { offset: i, reason: 'input too deeply nested' };
  }
}
