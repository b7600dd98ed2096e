import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
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

  // the proposal for the top-ranked namespace: valid Sidecar YAML and the clusters it saves
  const yaml = (await page.getByTestId('sidecar-yaml').first().textContent()) ?? '';
  const doc = parse(yaml) as {
    kind: string;
    metadata: { namespace: string };
    spec: { egress: { hosts: string[] }[] };
  };
  expect(doc.kind).toBe('Sidecar');
  expect(listed).toContain(doc.metadata.namespace);
  expect(doc.spec.egress[0]?.hosts).toContain('istio-system/*');
  await expect(page.getByTestId('proposal-saves').first()).toContainText(/\d[\d,]* fewer/);
  await expect(page.getByTestId('push-health')).toContainText('convergence');
  await snap(page, 'scoping-report');
});
