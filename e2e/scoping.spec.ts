import { expect, test } from '@playwright/test';
import { parse, parseAllDocuments } from 'yaml';
import { base, PORTS, simUrl, snap } from './support';

const demo = base(PORTS.demo);

interface SimSidecars {
  items: { metadata: { namespace?: string }; spec?: { workloadSelector?: unknown } }[];
}

test('scoping names the namespaces without Sidecars and shows the YAML that fixes one', async ({
  page,
}) => {
  // independent truth: namespaces with a namespace-default Sidecar, straight from the simulator
  const res = await fetch(`${simUrl()}/apis/networking.istio.io/v1/sidecars`);
  const sidecars = (await res.json()) as SimSidecars;
  const scoped = new Set(
    sidecars.items.filter((s) => !s.spec?.workloadSelector).map((s) => s.metadata.namespace),
  );

  await page.goto(`${demo}/scoping`);
  await expect(page.getByTestId('scoping-table')).toBeVisible();
  const names = page.getByTestId('unscoped-names');
  await expect(names).toBeVisible();
  const text = (await names.textContent()) ?? '';
  const listed = text
    .split(':')
    .pop()!
    .replace(/\.$/, '')
    .split(',')
    .map((s) => s.trim());
  expect(listed.length).toBeGreaterThan(0);
  for (const ns of listed) expect(scoped.has(ns)).toBe(false);
  await expect(page.getByTestId('stat-unscoped-ns')).toContainText(String(listed.length));

  // every card says what it counts: namespaces with a Sidecar resource of their own, from the
  // simulator's Sidecars, against namespaces with sidecar proxies
  const withResource = new Set(sidecars.items.map((s) => s.metadata.namespace));
  const meshed = Number(
    ((await page.getByTestId('stat-meshed-ns').textContent()) ?? '').replace(/\D+/g, ''),
  );
  const ranked = await page.getByTestId('scoping-table').locator('tbody tr').allTextContents();
  const ownResource = [...withResource].filter((ns) => ranked.some((r) => r.includes(ns ?? '')));
  await expect(page.getByTestId('stat-sidecar-resource-ns')).toContainText(
    `own Sidecar resource${ownResource.length}`,
  );
  await expect(page.getByTestId('stat-meshed-ns')).toContainText('sidecar proxies');
  expect(meshed).toBeGreaterThanOrEqual(ownResource.length);

  // the proposals of the top-ranked namespace are folded: one line each, the YAML on demand,
  // one combined YAML for the namespace
  const card = page.getByTestId('scoping-proposal');
  await expect(card.getByTestId('namespace-proposals')).toBeVisible();
  await expect(card.getByTestId('sidecar-yaml')).toHaveCount(0);
  const folded = await card.boundingBox();
  expect(folded?.height ?? 0).toBeLessThan(900);
  const combined = await card.getByTestId('namespace-yaml-download').getAttribute('href');
  const docs = parseAllDocuments(
    decodeURIComponent((combined ?? '').split(',').slice(1).join(',')),
  );
  const lines = await card.locator('details').count();
  expect(docs.length).toBeGreaterThan(0);
  expect(docs.length).toBeLessThanOrEqual(lines);
  for (const d of docs) expect((d.toJS() as { kind: string }).kind).toBe('Sidecar');
  await snap(page, 'scoping-folded');
  await card.locator('details summary').first().click();
  const yaml = (await page.getByTestId('sidecar-yaml').first().textContent()) ?? '';
  const doc = parse(yaml) as {
    kind: string;
    metadata: { namespace: string };
    spec: { egress: { hosts: string[] }[] };
  };
  expect(doc.kind).toBe('Sidecar');
  expect(listed).toContain(doc.metadata.namespace);
  expect(doc.spec.egress[0]?.hosts).toContain('istio-system/*');
  // the demo's istiod is older than 1.31: no ~ exclusion in any YAML, and the view says why and what
  // they would save on 1.31+
  expect(doc.spec.egress[0]?.hosts.some((h) => h.startsWith('~'))).toBe(false);
  // independent truth: the tag of the image istiod's pods run, straight from the simulator
  const istiodPods = (await (
    await fetch(`${simUrl()}/api/v1/namespaces/istio-system/pods?labelSelector=app%3Distiod`)
  ).json()) as { items: { spec: { containers: { name: string; image: string }[] } }[] };
  const tags = new Set(
    istiodPods.items.flatMap((p) =>
      p.spec.containers.filter((c) => c.name === 'discovery').map((c) => c.image.split(':').pop()),
    ),
  );
  expect(tags.size).toBe(1);
  const tag = [...tags][0] ?? '';
  expect(Number(tag.split('.')[1])).toBeLessThan(31);
  await expect(page.getByTestId('exclusions-status')).toContainText(
    `istiod ${tag} is older than 1.31`,
  );
  await expect(page.getByTestId('exclusions-status')).toContainText(/would save [\d,]+ more/);
  // a proposal whose line says what exclusions would save says the same figure once opened
  const withExclusions = card.locator('details', { hasText: 'more with 1.31 exclusions' }).first();
  const badge = (await withExclusions.locator('summary').textContent()) ?? '';
  const figure = /([\d,]+) more with 1\.31 exclusions/.exec(badge)?.[1];
  expect(figure).toBeDefined();
  await withExclusions.locator('summary').click();
  await expect(withExclusions.getByTestId('proposal-exclusions')).toContainText(
    `would save ${figure} more clusters`,
  );
  await expect(withExclusions.getByTestId('proposal-exclusions')).toContainText(
    'Exclusions not in this YAML',
  );
  expect((await withExclusions.getByTestId('sidecar-yaml').textContent()) ?? '').not.toMatch(
    /- ~[a-z0-9-]+\//,
  );
  await snap(page, 'scoping-exclusions');
  await withExclusions.locator('summary').click();
  await expect(page.getByTestId('proposal-saves').first()).toContainText(/\d[\d,]* fewer/);
  await expect(page.getByTestId('push-health')).toContainText('convergence');
  await snap(page, 'scoping-report');
});
