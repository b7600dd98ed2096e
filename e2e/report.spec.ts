import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { base, PORTS, simUrl } from './support';
import { freePort } from '../test-support/ports';

const root = path.join(import.meta.dirname, '..');
const outRoot = path.join(root, 'test-results', 'report');
const demo = base(PORTS.demo);
const VIEWS = ['overview', 'timelines', 'proxies', 'scoping', 'incidents', 'findings'];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// each test writes its own report (--out) from a dashboard of its own: they run side by side
test.describe.configure({ mode: 'parallel' });

const ReportSchema = z.object({
  cluster: z.string().min(1),
  createdAt: z.iso.datetime(),
  pages: z.array(
    z.object({
      name: z.string(),
      url: z.url(),
      file: z.string().nullable(),
      pdf: z.string().optional(),
      status: z.enum(['ok', 'error']),
      error: z.string().optional(),
    }),
  ),
});

/** Runs the real CLI (bin/meshdx.mjs) the way an SRE does. */
function meshdx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin', 'meshdx.mjs'), 'report', ...args],
      { cwd: outRoot, timeout: 240_000, env: { ...process.env } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function readReport(dir: string) {
  return ReportSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')));
}

test.beforeAll(() => fs.mkdirSync(outRoot, { recursive: true }));

test('meshdx report captures every view and the deep links of the demo', async () => {
  test.setTimeout(240_000);
  const pods = (await (await fetch(`${simUrl()}/api/v1/namespaces/shop/pods`)).json()) as {
    items: { metadata: { name: string } }[];
  };
  const pod = pods.items.map((p) => p.metadata.name).sort()[0];
  expect(pod).toBeDefined();
  const links = [
    `${demo}/timelines?namespace=shop&pod=shop/${pod}`,
    `/incidents?namespace=shop&from=2026-11-01T11:59:30.000Z&to=2026-11-01T12:02:00.000Z`,
  ];
  const dir = path.join(outRoot, 'demo');
  fs.rmSync(dir, { recursive: true, force: true });
  const r = await meshdx([
    '--url',
    demo,
    '--out',
    'demo',
    ...links.flatMap((l) => ['--link', l]),
    '--pdf',
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const report = readReport(dir);
  expect(report.cluster).toBe('meshdx-sim-demo');
  expect(report.pages.map((p) => p.name)).toEqual([
    ...VIEWS,
    'link-1-timelines',
    'link-2-incidents',
  ]);
  expect(report.pages.every((p) => p.status === 'ok')).toBe(true);
  expect(report.pages[6]?.url).toBe(links[0]);
  expect(report.pages[7]?.url).toBe(`${demo}${links[1]}`);
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  expect(html).toContain('<title>meshdx report: meshdx-sim-demo</title>');
  for (const p of report.pages) {
    expect(p.file).not.toBeNull();
    const png = fs.readFileSync(path.join(dir, p.file!));
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(png.length).toBeGreaterThan(10 * 1024);
    expect(html).toContain(`data-page="${p.name}"`);
    expect(html).toContain(`src="${p.file}"`);
    expect(html).toContain(`href="${p.url.replace(/&/g, '&amp;')}"`);
    // --pdf: each page also printed on A4 through the dashboard's print stylesheet
    expect(p.pdf, p.name).toBe(p.file!.replace(/\.png$/, '.pdf'));
    const pdf = fs.readFileSync(path.join(dir, p.pdf!));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 59[45](\.\d+)? 84[12](\.\d+)?\]/);
  }
  expect(html).not.toContain('id="errors"');
  expect(fs.readFileSync(path.join(dir, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a dashboard whose cluster is broken gives a report with the errors first, exit 1', async () => {
  test.setTimeout(180_000);
  const dir = path.join(outRoot, 'bad-kubeconfig');
  fs.rmSync(dir, { recursive: true, force: true });
  const r = await meshdx([
    '--url',
    base(PORTS.badKubeconfig),
    '--out',
    'bad-kubeconfig',
    '--views',
    'overview,proxies',
  ]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('2 of 2 pages showed an error');
  const report = readReport(dir);
  expect(report.cluster).toBe('no cluster');
  for (const p of report.pages) {
    expect(p.status).toBe('error');
    expect(p.error).toContain('KUBECONFIG_NOT_FOUND');
    expect(fs.statSync(path.join(dir, p.file!)).size).toBeGreaterThan(10 * 1024);
  }
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  expect(html).toContain('2 of 2 pages showed an error');
});

test('nothing listening at --url: exit 2 with the URL and the port-forward to start', async () => {
  const port = await freePort();
  const r = await meshdx(['--url', `http://127.0.0.1:${port}`, '--out', 'nothing']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`meshdx is not reachable at http://127.0.0.1:${port}/`);
  expect(r.stderr).toContain(`kubectl -n meshdx port-forward svc/meshdx ${port}:80`);
  expect(fs.existsSync(path.join(outRoot, 'nothing'))).toBe(false);
});
