import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { podPath } from '../lib/refs/pod-ref';
import { stat } from './screen-figures';
import { base, PORTS, snap } from './support';

/**
 * `meshdx open` on an archive `meshdx gather` wrote of the phantom-503 simulator
 * (e2e/fixtures/archive-server.ts, PORTS.archive, the archive the only cluster): every view
 * says in its header that it shows the archive, when it was captured and how many parts it
 * lacks, as /api/cluster says; its cards are the API's figures; and each view is photographed
 * (test-results/screenshots/archive-*.png).
 */
const dash = base(PORTS.archive);

interface ArchiveInfo {
  name: string;
  capturedAt: string | null;
  missing: unknown[];
  problems: unknown[];
}

async function api<T>(p: string): Promise<T> {
  const res = await fetch(`${dash}${p}`);
  expect(res.status, p).toBe(200);
  return (await res.json()) as T;
}

/** The header's archive note, as /api/cluster describes the archive. */
async function header(page: Page, info: ArchiveInfo): Promise<void> {
  const note = page.getByTestId('archive-note').locator('summary');
  const captured = `${(info.capturedAt ?? '').replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC`;
  const lacks = info.missing.length + info.problems.length;
  await expect(note).toHaveText(
    `archive ${info.name}, captured ${captured}${lacks > 0 ? `, lacks ${lacks} part${lacks === 1 ? '' : 's'}` : ''}`,
  );
}

test.describe('an archive opened with meshdx open', () => {
  test('every view says it is the archive, when it was captured and what it lacks; its cards are the API figures', async ({
    page,
  }) => {
    const written = JSON.parse(
      fs.readFileSync(
        path.join(import.meta.dirname, '..', 'test-results', 'archive-open.json'),
        'utf8',
      ),
    ) as { archive: string };
    const cluster = await api<{ archive: ArchiveInfo | null }>('/api/cluster');
    const info = cluster.archive as ArchiveInfo;
    expect(info.name).toBe(path.basename(written.archive));
    expect(info.capturedAt).toBe('2026-11-01T12:00:00.000Z');
    // a gathered archive lacks what the simulator's proxies and istiod do not serve (named)
    expect(info.missing.length).toBeGreaterThan(0);

    const inventory = await api<{ totals: { pods: number; meshedPods: number } }>('/api/inventory');
    await page.goto(`${dash}/`);
    await header(page, info);
    await expect(page.getByTestId('stat-meshed')).toBeVisible();
    expect(await stat(page, 'stat-pods')).toBe(inventory.totals.pods);
    expect(await stat(page, 'stat-meshed')).toBe(inventory.totals.meshedPods);
    // opened, the note names each missing part with its reason
    await page.getByTestId('archive-note').locator('summary').click();
    await expect(page.getByTestId('archive-missing').locator('li')).toHaveCount(
      info.missing.length,
    );
    await snap(page, 'archive-note');
    await page.getByTestId('archive-note').locator('summary').click();
    await snap(page, 'archive-overview');

    const timelines = await api<{
      rows: { namespace: string; name: string }[];
      page: { counts: { pods: number } };
    }>('/api/timelines');
    await page.goto(`${dash}/timelines`);
    await header(page, info);
    await expect(page.getByTestId('stat-pods')).toBeVisible();
    expect(await stat(page, 'stat-pods')).toBe(timelines.page.counts.pods);
    await snap(page, 'archive-timelines');

    const fleet = await api<{ totals: { proxies: number } }>('/api/proxies/fleet');
    await page.goto(`${dash}/proxies`);
    await header(page, info);
    await expect(page.getByTestId('stat-proxies')).toBeVisible({ timeout: 60_000 });
    expect(await stat(page, 'stat-proxies')).toBe(fleet.totals.proxies);
    await snap(page, 'archive-proxies');

    for (const [view, shot] of [
      ['/scoping', 'archive-scoping'],
      ['/incidents', 'archive-incidents'],
      ['/findings', 'archive-findings'],
    ] as const) {
      await page.goto(`${dash}${view}`);
      await header(page, info);
      await snap(page, shot);
    }

    const pod = timelines.rows[0] as { namespace: string; name: string };
    await page.goto(`${dash}/pods/${podPath(pod)}`);
    await header(page, info);
    await snap(page, 'archive-pod');
  });
});
