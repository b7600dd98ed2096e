/**
 * The figures a view shows, read as the user sees them: a stat card's numbers, a figure an
 * element carries in the DOM, and the findings report as Findings and Overview's attention card
 * show it (with when it was made), for the specs that check that the screens add up.
 */
import { expect, type Page } from '@playwright/test';

/** A stat card's value, as shown ("1,234" reads 1234; "12 (3)" reads 12 and 3). */
export async function statNumbers(page: Page, id: string): Promise<number[]> {
  const text = (await page.getByTestId(id).locator('> div').nth(1).textContent()) ?? '';
  const nums = text.match(/-?[\d,]+/g) ?? [];
  expect(nums.length, `${id} shows a number: "${text}"`).toBeGreaterThan(0);
  return nums.map((n) => Number(n.replace(/,/g, '')));
}
export const stat = async (page: Page, id: string) => (await statNumbers(page, id))[0] as number;
export const attr = async (page: Page, id: string, name: string) =>
  Number(await page.getByTestId(id).getAttribute(name));

/** What a findings screen shows of its whole report: its kinds, its findings, when it was made. */
interface FindingsSeen {
  kinds: number;
  all: number;
  at: string;
}

async function findingsScreen(page: Page, demo: string, ctx: string): Promise<FindingsSeen> {
  await page.goto(`${demo}/findings?context=${ctx}`);
  const groups = page.getByTestId('findings-groups-card');
  await expect(groups).toBeVisible({ timeout: 60_000 });
  // a first answer says what it has not read yet; the figures compared are the whole report's
  await expect(page.getByTestId('late-note')).toHaveCount(0, { timeout: 90_000 });
  const kinds = Number(/(\d+) kinds? of finding/.exec((await groups.textContent()) ?? '')?.[1]);
  const all = Number(
    /All (\d+) findings?/.exec((await page.getByTestId('findings-card').textContent()) ?? '')?.[1],
  );
  const at = (await page.getByTestId('report-time').getAttribute('data-generated-at')) ?? '';
  return { kinds, all, at };
}

async function attentionCard(page: Page, demo: string, ctx: string): Promise<FindingsSeen> {
  await page.goto(`${demo}/?context=${ctx}`);
  const totals = page.getByTestId('attention-totals');
  await expect(totals).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('attention-partial')).toHaveCount(0, { timeout: 90_000 });
  const [errors, warnings, notes, kinds] = ((await totals.textContent()) ?? '')
    .match(/\d+/g)!
    .map(Number) as [number, number, number, number];
  const card = page.getByTestId('attention-card').getByTestId('report-time');
  const at = (await card.getAttribute('data-generated-at')) ?? '';
  return { kinds, all: errors + warnings + notes, at };
}

/**
 * Findings and Overview's attention card show one report the same way. Each screen says when its
 * report was made: the cluster keeps changing (a rollout's pods settle, their drains end), so a
 * report made after the one Findings showed may be Overview's. The figures are compared on the
 * same report: Findings is read again while Overview's differs (a report is served for 30 s,
 * server/screens/findings FINDINGS_CACHE_MS, so the next reading is the one Overview showed).
 */
export async function findingsAgree(page: Page, demo: string, ctx: string): Promise<number> {
  const seen: string[] = [];
  for (let i = 0; i < 4; i++) {
    const f = await findingsScreen(page, demo, ctx);
    expect(f.kinds).toBeGreaterThan(0);
    expect(f.at, 'Findings says when its report was made').not.toBe('');
    const o = await attentionCard(page, demo, ctx);
    if (o.at === f.at) {
      expect(o.kinds, "Overview's kinds of finding vs Findings").toBe(f.kinds);
      expect(o.all, "Overview's findings vs Findings").toBe(f.all);
      return f.kinds;
    }
    seen.push(`Findings ${f.at} (${f.kinds} kinds), Overview ${o.at} (${o.kinds} kinds)`);
  }
  throw new Error(`Findings and Overview never showed the same report: ${seen.join('; ')}`);
}
