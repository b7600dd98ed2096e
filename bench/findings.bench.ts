import os from 'node:os';
import { manifestFindings } from '../lib/findings/manifest';
import { findingsBenchObjects } from './findings-data';
import { FINDINGS_BENCH_COUNTS } from './findings-workloads';
import { ms, peakRssMb, type BenchResult } from './support';

/**
 * `findings.report-20000-objects`: the config-findings report of a cluster of 20,000 Istio
 * objects (6,000 VirtualServices, 6,000 DestinationRules, 4,000 ServiceEntries, 2,000 Sidecars,
 * 2,000 AuthorizationPolicies) beside 50,000 Pods, their 9,997 Services and 2,000 Namespaces
 * (bench/findings-data.ts, seeded): what `meshdx findings` computes over the objects once they
 * are parsed (manifestFindings: screening, injection, protocol selection, Sidecar selection, the
 * VirtualService / DestinationRule references and every analyzer rule of
 * lib/findings/rules, deduplicated and sorted), and what the live report's config findings are
 * made of (server/screens/findings/assemble.ts runs the same checkScreened on the screened lists).
 *
 * Not the live /api/findings report: its whole answer waits for the analyses beside the config
 * findings (Scoping reads every proxy's config, Timelines, Incidents, ambient readiness, the
 * istio-proxy logs), and listing 50,000 pods from an API server takes seconds of its own
 * (listwatch.first-list-50000-pods): through that path this would measure those, not the rules.
 * Reading and parsing YAML is not timed either: the objects are built in memory first.
 *
 * Timed: one report, the first in a fresh process (as the CLI makes it: no JIT warm-up); a second
 * report is noted beside it. Peak RSS is this process's (tsx, the generated objects and both
 * reports), which is the CLI's on these objects minus the text it parsed them from.
 */
const TARGET_MS = 3_000;
const TARGET_MB = 600;

export async function run(): Promise<BenchResult[]> {
  const g = process.hrtime.bigint();
  const objects = findingsBenchObjects();
  const generated = ms(g);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const first = manifestFindings(objects);
  const cold = ms(t0);
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const t1 = process.hrtime.bigint();
  const second = manifestFindings(objects);
  const warm = ms(t1);
  if (second.findings.length !== first.findings.length)
    throw new Error(`two reports differ: ${first.findings.length} vs ${second.findings.length}`);
  const s = first.screened;
  const istio =
    s.virtualServices.length +
    s.destinationRules.length +
    s.serviceEntries.length +
    s.sidecars.length +
    s.objects.filter((o) => o.kind === 'AuthorizationPolicy').length;
  const C = FINDINGS_BENCH_COUNTS;
  if (istio !== 20_000 || s.pods.length !== C.pods || s.namespaces.length !== C.namespaces)
    throw new Error(
      `expected 20,000 Istio objects, ${C.pods} pods, ${C.namespaces} namespaces; screened ${istio}, ${s.pods.length}, ${s.namespaces.length}`,
    );
  const byCode = new Map<string, number>();
  for (const f of first.findings) byCode.set(f.code, (byCode.get(f.code) ?? 0) + 1);
  const codes = [...byCode]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  return [
    {
      name: 'findings.report-20000-objects',
      value: Math.round(cold),
      unit: 'ms',
      target: TARGET_MS,
      note: `${first.findings.length} findings (${codes}) over ${s.objects.length.toLocaleString('en-US')} objects (${s.services.length} Services); CPU ${Math.round(cpuMs)} ms (GC threads included); the second report ${Math.round(warm)} ms; objects generated in ${Math.round(generated)} ms (not timed); load average ${os.loadavg()[0]?.toFixed(1)}`,
    },
    {
      name: 'findings.report-20000-objects-peak-rss',
      value: Math.round(peakRssMb()),
      unit: 'MB',
      target: TARGET_MB,
      note: 'this process: tsx, the generated objects and two reports',
    },
  ];
}
