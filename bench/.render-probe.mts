import { chromium } from 'playwright-core';
import { startNextServer } from './next-server';
import { startSimProcess } from './support';

async function main() {
  const sim = await startSimProcess('scale', { pods: '5000', services: '500' });
  const server = await startNextServer(sim.kubeconfig);
  try {
    for (;;) { const r = await fetch(`${server.url}/api/timelines`).catch(() => null); if (r?.ok) { await r.text(); break; } await new Promise(r => setTimeout(r, 500)); }
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    for (let i = 0; i < 4; i++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const t = Date.now();
      await page.goto(`${server.url}/timelines`, { waitUntil: 'commit' });
      await page.locator('[data-testid="pods-table"] [role="row"][data-row-key]').first().waitFor();
      const total = Date.now() - t;
      const info = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({ n: r.name.replace(location.origin, '').slice(0, 60), s: Math.round(r.startTime), e: Math.round(r.responseEnd), kb: Math.round(r.transferSize / 1024) }));
        return { now: Math.round(performance.now()), resp: Math.round(nav.responseStart), respEnd: Math.round(nav.responseEnd), dcl: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd), rows: document.querySelectorAll('[data-testid="pods-table"] [role="row"]').length, nodes: document.getElementsByTagName('*').length, res };
      });
      console.log(JSON.stringify({ total, ...info, res: i === 3 ? info.res : info.res.length }));
      await page.close();
    }
    await browser.close();
  } finally { await server.stop(); await sim.stop(); }
}
void main();
