import type { DistributionBin } from '../api/proxies';

/** The smallest 1/2/5 x 10^k width that covers [0, max] in at most `maxBins` bins. */
export function niceBinWidth(max: number, maxBins: number): number {
  if (!(max > 0)) return 1;
  const raw = (max + 1) / maxBins;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return Math.max(1, m * pow);
  return Math.max(1, 10 * pow);
}

/** Histogram of values in equal-width bins starting at 0 (empty input: no bins). */
export function distribution(values: readonly number[], maxBins = 12): DistributionBin[] {
  const finite = values.filter((v) => Number.isFinite(v) && v >= 0);
  if (finite.length === 0) return [];
  const max = finite.reduce((a, b) => Math.max(a, b), 0);
  const width = niceBinWidth(max, maxBins);
  const count = Math.floor(max / width) + 1;
  const bins: DistributionBin[] = Array.from({ length: count }, (_, i) => ({
    from: i * width,
    to: (i + 1) * width,
    count: 0,
  }));
  for (const v of finite) {
    const bin = bins[Math.min(count - 1, Math.floor(v / width))];
    if (bin) bin.count++;
  }
  return bins;
}
