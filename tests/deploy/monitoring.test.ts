/**
 * deploy/monitoring: the example alert rules pass Prometheus' own `promtool check rules` and fire
 * in `promtool test rules` on the series /api/metrics exports; every metric the rules and the
 * Grafana dashboard name is one meshdx exports, and every link they carry opens a meshdx view
 * with parameters that view reads.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PAGE_PARAMS } from '../../lib/api/route-params';
import { PROMTOOL_BIN, requirePrometheus } from '../../test-support/prometheus';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

requirePrometheus();

const root = path.resolve(import.meta.dirname, '..', '..');
const RULES = path.join(root, 'deploy', 'monitoring', 'meshdx-alerts.yaml');
const DASHBOARD = path.join(root, 'deploy', 'monitoring', 'grafana-dashboard.json');

interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}
interface Panel {
  title: string;
  targets: { expr: string }[];
  fieldConfig: { defaults: { links: { url: string }[] } };
}

const rules = (
  parse(fs.readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
  panels: Panel[];
  links: { url: string }[];
};

function promtool(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(PROMTOOL_BIN, args, { timeout: CHILD_PROCESS_GUARD_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** The metric names /api/metrics exports, as its use case registers them. */
const exported = new Set(
  [
    ...fs
      .readFileSync(path.join(root, 'server', 'screens', 'metrics', 'metrics.ts'), 'utf8')
      .matchAll(/'(meshdx_[a-z_]+)'/g),
  ].map((m) => m[1]),
);

/** A link's view path and the parameters it gives, its template placeholders filled in. */
function viewOf(url: string): { path: string; params: string[] } {
  const filled = url
    .replace('${meshdx_url}', 'https://meshdx.example.com')
    .replace(/\$\{[^}]+\}|\{\{[^}]+\}\}/g, 'x');
  const u = new URL(filled);
  return { path: u.pathname, params: [...new Set(u.searchParams.keys())] };
}

function expectMeshdxView(url: string): void {
  const { path: p, params } = viewOf(url);
  if (p === '/api/health') return;
  const page = Object.hasOwn(PAGE_PARAMS, p)
    ? PAGE_PARAMS[p as keyof typeof PAGE_PARAMS]
    : p === '/x'
      ? // a link to the view a label names (/{{ $labels.view }}): one of the views' pages
        PAGE_PARAMS['/findings']
      : undefined;
  expect(page, `${url} opens no meshdx page`).toBeDefined();
  for (const k of params)
    expect(Object.keys(page?.query ?? {}), `${url}: ${k} is not a parameter of ${p}`).toContain(k);
}

describe('deploy/monitoring', () => {
  it('promtool checks the rules, and they fire on the series meshdx exports', async () => {
    const check = await promtool(['check', 'rules', RULES]);
    expect(check.code, check.out).toBe(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-rules-'));
    const test = path.join(dir, 'test.yaml');
    fs.writeFileSync(
      test,
      [
        `rule_files: [${JSON.stringify(RULES)}]`,
        'evaluation_interval: 1m',
        'tests:',
        '  - interval: 1m',
        '    input_series:',
        `      - series: 'meshdx_incident_failing_requests{state="terminating"}'`,
        "        values: '0 3 3 3 3'",
        `      - series: 'meshdx_incident_failing_requests{state="live"}'`,
        "        values: '9 9 9 9 9'",
        `      - series: 'meshdx_view_up{view="proxies",code="FORBIDDEN"}'`,
        "        values: '0x15'",
        '    alert_rule_test:',
        '      - eval_time: 4m',
        '        alertname: MeshRequestsToGonePods',
        '        exp_alerts:',
        '          - exp_labels: { severity: warning }',
        '            exp_annotations:',
        "              summary: 'Requests failed against pods already being deleted (phantom 503s) in the last 15 minutes'",
        "              meshdx: 'https://meshdx.example.com/incidents?from=now-30m&to=now'",
        '      - eval_time: 12m',
        '        alertname: MeshdxViewFailing',
        '        exp_alerts:',
        '          - exp_labels: { severity: warning, view: proxies, code: FORBIDDEN }',
        '            exp_annotations:',
        "              summary: 'meshdx could not read its proxies view (FORBIDDEN): its figures are absent'",
        "              meshdx: 'https://meshdx.example.com/proxies'",
        '',
      ].join('\n'),
    );
    const ran = await promtool(['test', 'rules', test]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(ran.code, ran.out).toBe(0);
  });

  it('names only metrics /api/metrics exports', () => {
    expect(exported.size).toBeGreaterThan(5);
    const exprs = [
      ...rules.map((r) => r.expr),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ];
    for (const e of exprs)
      for (const m of e.matchAll(/\bmeshdx_[a-z_]+/g)) expect(exported, e).toContain(m[0]);
  });

  it('links only to meshdx views, with parameters those views read', () => {
    const links = [
      ...rules.map((r) => r.annotations.meshdx ?? ''),
      ...dashboard.links.map((l) => l.url),
      ...dashboard.panels.flatMap((p) => p.fieldConfig.defaults.links.map((l) => l.url)),
    ];
    expect(links.every((l) => l !== '')).toBe(true);
    for (const l of links) expectMeshdxView(l);
  });
});
