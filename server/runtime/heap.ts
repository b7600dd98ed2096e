import v8 from 'node:v8';

/**
 * The server's heap policy and what its memory is now. meshdx holds every watched pod: its
 * resident set is what a cluster operator sizes the pod's memory limit by, so V8 is asked to
 * keep the heap near what is live (MESHDX_HEAP_GROWTH_PERCENT) rather than let it grow up to
 * four times past it between full collections.
 */
export function applyHeapGrowth(percent: number): void {
  // V8 reads the flag each time it sets the next collection's limit: setting it at start holds
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

export interface ProcessMemory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** V8's limit for this heap (what --max-old-space-size or the machine gives). */
  heapLimitMb: number;
  /** MESHDX_HEAP_GROWTH_PERCENT as applied; 0: V8's own policy. */
  heapGrowthPercent: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export function processMemory(heapGrowthPercent: number): ProcessMemory {
  const m = process.memoryUsage();
  return {
    rssMb: mb(m.rss),
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    heapLimitMb: mb(v8.getHeapStatistics().heap_size_limit),
    heapGrowthPercent,
  };
}
