/**
 * The part of the CEL that Telemetry access-log filters use on response codes, as the
 * simulated Envoy evaluates it: `response.code OP INT` (==, !=, <, <=, >, >=) joined by && and
 * ||, with parentheses. Anything else is not understood: the simulated proxy then logs nothing
 * for that provider (a real Envoy would reject the filter).
 */
export type CelFilter = (r: { code: number }) => boolean;

const TOKEN = /\s*(\(|\)|&&|\|\||==|!=|<=|>=|<|>|response\.code|\d+)\s*/y;

export function parseFilter(expression: string): CelFilter | null {
  if (expression.trim() === '') return () => true;
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    const m = TOKEN.exec(expression);
    if (!m?.[1]) return null;
    tokens.push(m[1]);
  }
  let i = 0;
  const or = (): CelFilter | null => {
    let left = and();
    while (left && tokens[i] === '||') {
      i++;
      const right = and();
      if (!right) return null;
      const l = left;
      left = (r) => l(r) || right(r);
    }
    return left;
  };
  const and = (): CelFilter | null => {
    let left = atom();
    while (left && tokens[i] === '&&') {
      i++;
      const right = atom();
      if (!right) return null;
      const l = left;
      left = (r) => l(r) && right(r);
    }
    return left;
  };
  const atom = (): CelFilter | null => {
    if (tokens[i] === '(') {
      i++;
      const inner = or();
      if (tokens[i++] !== ')') return null;
      return inner;
    }
    if (tokens[i] !== 'response.code') return null;
    const op = tokens[i + 1];
    const n = Number(tokens[i + 2]);
    i += 3;
    if (!Number.isInteger(n)) return null;
    switch (op) {
      case '==':
        return (r) => r.code === n;
      case '!=':
        return (r) => r.code !== n;
      case '<':
        return (r) => r.code < n;
      case '<=':
        return (r) => r.code <= n;
      case '>':
        return (r) => r.code > n;
      case '>=':
        return (r) => r.code >= n;
      default:
        return null;
    }
  };
  const f = or();
  return f && i === tokens.length ? f : null;
}
