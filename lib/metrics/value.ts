/** Go strconv.ParseFloat as Prometheus uses it: decimals, exponents, Inf/NaN in any case. */
export function parseFloatStrict(s: string): number | null {
  const lower = s.toLowerCase();
  if (lower === 'nan') return NaN;
  if (lower === '+inf' || lower === 'inf' || lower === '+infinity' || lower === 'infinity') {
    return Infinity;
  }
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isNaN(n) ? null : n;
}
