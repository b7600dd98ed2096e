import { KubeConfig } from '@kubernetes/client-node';
import { chromium } from 'playwright-core';
import { cacheOn } from '../test-support/feeds';
import { KubeTransport } from '../server/kube/transport';
import { newTimelinesState, timelineFleetFrom } from '../server/screens/timelines/timelines';
import { startNextServer, waitForWatches } from './next-server';
import { ms, startSimProcess, type BenchResult } from './support';
import { chromiumPath } from '../cli/report/chromium';

/**
 * The Timelines fleet API on the `scale` scenario (5,000 pods), warm, in
 * process and through `next start`, and the page render (virtualised table) in Chromium.
 */
const PODS = 5000;
const CALLS = 20;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0);
}

async function timed(n: number, f: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await f();
    out.push(ms(t));
  }
  return out;
}

async function inProcess(kubeconfigYaml: string): Promise<BenchResult[]> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml);
  const t = new KubeTransport(kc);
  const { cache, source, stop } = cacheOn(t, kc);
  // the screen's state, as its runtime keeps it between calls
  const src = { ...source, state: newTimelinesState() };
  try {
    const t0 = process.hrtime.bigint();
    const first = await timelineFleetFrom(cache, src, new Date());
    const cold = ms(t0);
    if (first.rows.length < PODS * 0.9) throw new Error(`only ${first.rows.length} meshed pods`);
    const warm = await timed(CALLS, async () =>
      JSON.stringify(await timelineFleetFrom(cache, src, new Date())),
    );
    return [
      {
        name: 'timelines.api-cold-in-process',
        value: Math.round(cold),
        unit: 'ms',
        note: `${first.rows.length} rows (list+watch+analysis)`,
      },
      { name: 'timelines.api-warm-in-process-p50', value: pct(warm, 50), unit: 'ms', target: 300 },
      { name: 'timelines.api-warm-in-process-p95', value: pct(warm, 95), unit: 'ms', target: 300 },
    ];
  } finally {
    stop();
    t.close();
  }
}

async function throughNext(kubeconfig: string): Promise<BenchResult[]> {
  const server = await startNextServer(kubeconfig);
  const url = server.url;
  try {
    // up, and its cluster answering (the watches may still be listing: that is the cold call)
    const until = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${url}/api/cluster`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error('next start did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    // cold: until the whole fleet's answer; while the first list runs, the API answers from the
    // pods read so far (named late) and the screen asks again, so those answers are not warm ones
    const t0 = process.hrtime.bigint();
    let firstMs: number | null = null;
    let bytes = 0;
    for (;;) {
      const body = await (await fetch(`${url}/api/timelines`)).text();
      firstMs ??= ms(t0);
      bytes = body.length;
      const late = (JSON.parse(body) as { late?: { part: string }[] }).late ?? [];
      if (!late.some((l) => l.part === 'pods' || l.part === 'Kubernetes Events')) break;
      if (ms(t0) > 120_000) throw new Error('no whole Timelines answer within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cold = ms(t0);
    const warm = await timed(CALLS, async () => (await fetch(`${url}/api/timelines`)).text());
    const browser = await chromium.launch({
      executablePath: chromiumPath(process.env),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
    const renders: number[] = [];
    const parts: RenderParts[] = [];
    try {
      // one load to start the browser's processes and fill Next's route cache, then five
      // measured ones (a page an SRE opens in a running browser against a running server)
      for (let i = 0; i < 6; i++) {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        await page.addInitScript(recordRowTime);
        const t = process.hrtime.bigint();
        await page.goto(`${url}/timelines`, { waitUntil: 'commit' });
        await page
          .locator('[data-testid="pods-table"] [role="row"][data-row-key]')
          .first()
          .waitFor();
        if (i > 0) {
          renders.push(ms(t));
          parts.push(await page.evaluate(renderParts));
        }
        await page.close();
      }
    } finally {
      await browser.close();
    }
    const med = (k: keyof RenderParts) =>
      pct(
        parts.map((p) => p[k]),
        50,
      );
    return [
      {
        name: 'timelines.http-cold',
        value: Math.round(cold),
        unit: 'ms',
        note: `${Math.round(bytes / 1024)} KB JSON; until the whole fleet's answer (the first, from the pods read so far, after ${Math.round(firstMs ?? 0)} ms)`,
      },
      { name: 'timelines.http-warm-p50', value: pct(warm, 50), unit: 'ms', target: 300 },
      { name: 'timelines.http-warm-p95', value: pct(warm, 95), unit: 'ms', target: 300 },
      {
        name: 'timelines.page-render-table',
        value: pct(renders, 50),
        unit: 'ms',
        target: 1000,
        note: `median of 5 after a warm-up load, max ${Math.round(Math.max(...renders))} ms; in the page (medians, ms from its navigation): HTML's first byte ${med('ttfb')}, HTML whole ${med('html')}, first table row in the document ${med('row')}, DOMContentLoaded ${med('dcl')}, scripts ${med('scriptKb')} KB, main thread in long tasks until the row was found ${med('longTasks')}`,
      },
    ];
  } finally {
    await server.stop();
  }
}

/** Where a page load's time went (ms from the page's navigation), read in the page. */
interface RenderParts {
  ttfb: number;
  html: number;
  row: number;
  dcl: number;
  scriptKb: number;
  longTasks: number;
}

/** In the page, before its scripts: notes when the table's first row enters the document. */
function recordRowTime(): void {
  const w = window as unknown as { __rowAt?: number; __longTasks?: number };
  w.__longTasks = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks = (w.__longTasks ?? 0) + e.duration;
  }).observe({ type: 'longtask', buffered: true });
  const seen = new MutationObserver(() => {
    if (document.querySelector('[data-testid="pods-table"] [role="row"][data-row-key]')) {
      w.__rowAt = performance.now();
      seen.disconnect();
    }
  });
  seen.observe(document, { childList: true, subtree: true });
}

/** In the page, once the row is found: the navigation's timing and the row's time. */
function renderParts(): RenderParts {
  const w = window as unknown as { __rowAt?: number; __longTasks?: number };
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
  const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
    (e) => new URL(e.name).pathname.endsWith('.js'),
  );
  return {
    ttfb: Math.round(nav.responseStart),
    html: Math.round(nav.responseEnd),
    row: Math.round(w.__rowAt ?? -1),
    dcl: Math.round(nav.domContentLoadedEventEnd || -1),
    scriptKb: Math.round(scripts.reduce((n, e) => n + e.encodedBodySize, 0) / 1024),
    longTasks: Math.round(w.__longTasks ?? 0),
  };
}

/**
 * The screen's first page of the Timelines API at 50,000 pods (2,000 services, 20,000 with a
 * sidecar), warm, through `next start`: what the browser waits for and what it downloads.
 */
async function firstPage50k(): Promise<BenchResult[]> {
  const sim = await startSimProcess('scale', {
    pods: '50000',
    services: '2000',
    proxies: '20000',
  });
  try {
    const server = await startNextServer(sim.kubeconfig);
    try {
      const listed = await waitForWatches(server.url);
      const t0 = process.hrtime.bigint();
      const first = await fetch(`${server.url}/api/timelines`);
      const body = await first.text();
      const cold = ms(t0);
      if (!first.ok)
        throw new Error(`/api/timelines answered ${first.status}: ${body.slice(0, 300)}`);
      const page = JSON.parse(body) as { rows: unknown[]; page: { matched: number } };
      if (page.page.matched < 20_000)
        throw new Error(`only ${page.page.matched} meshed pods in the fleet`);
      const warm = await timed(CALLS, async () =>
        (await fetch(`${server.url}/api/timelines`)).text(),
      );
      return [
        {
          name: 'timelines.api-warm-50000-pods-p50',
          value: pct(warm, 50),
          unit: 'ms',
          target: 500,
          note: `first page of ${page.rows.length} rows of ${page.page.matched}; p95 ${pct(warm, 95)} ms; cold ${Math.round(cold)} ms after the watches listed in ${listed} ms`,
        },
        {
          name: 'timelines.api-first-page-bytes',
          value: Buffer.byteLength(body),
          unit: 'bytes',
          target: 1_000_000,
          note: '50,000 pods, 20,000 meshed, 800 workloads with a fix',
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await sim.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  const sim = await startSimProcess('scale', { pods: String(PODS), services: '500' });
  let small: BenchResult[];
  try {
    small = [...(await inProcess(sim.kubeconfigYaml)), ...(await throughNext(sim.kubeconfig))];
  } finally {
    await sim.stop();
  }
  return [...small, ...(await firstPage50k())];
}
