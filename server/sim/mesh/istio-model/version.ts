/** Istio versions of simulated proxies: the behaviour of istiod differs by the proxy's version. */

/** Compare dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export const atLeast = (version: string, min: string) => compareVersions(version, min) >= 0;
