import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeIO } from '../../test-support/cli-io';
import { runReportWith } from '../../cli/commands/report';
import { chromiumPath } from '../../cli/report/chromium';
import type { ReportJson } from '../../cli/report/model';
import { pngSize } from '../../cli/report/png';
import { defaultDeps } from '../../cli/report/run';
import { startStub, STUB_LABEL, STUB_SNAPSHOT, type StubServer } from './stub';
import { freePort } from '../../test-support/ports';

function io(cwd: string) {
  const sink = fakeIO(cwd);
  return { sink, out: () => sink.out, err: () => sink.err };
}

const FIXED = new Date('2026-11-01T12:00:00.000Z');
const run = runReportWith(() => ({ ...defaultDeps(), now: () => FIXED }));
const readReport = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as ReportJson;

let stub: StubServer;
let tmp: string;

beforeAll(async () => {
  stub = await startStub();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-report-'));
});
afterAll(async () => {
  await stub.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('meshdx report against a dashboard (real Chromium)', () => {
  it('captures views and links, marks error pages, writes json, html and pdf; exit 1', async () => {
    expect(fs.existsSync(chromiumPath(process.env))).toBe(true);
    const t = io(tmp);
    const code = await run(
      [
        '--url',
        stub.url,
        '--out',
        'r1',
        '--views',
        'overview,timelines,proxies',
        '--namespace',
        'shop',
        '--link',
        'http://localhost:9999/incidents?at=2026-11-01T11:58:00Z',
        '--link',
        '/stuck',
        '--link',
        '/no-such-view',
        '--width',
        '1024',
        '--timeout',
        '3',
        '--pdf',
      ],
      t.sink,
    );
    expect(t.err()).toContain('3 of 6 pages showed an error');
    expect(code).toBe(1);
    const dir = path.join(tmp, 'r1');
    const report = readReport(dir);
    expect(report.cluster).toBe(STUB_LABEL);
    expect(report.createdAt).toBe(FIXED.toISOString());
    const byName = Object.fromEntries(report.pages.map((p) => [p.name, p]));
    expect(report.pages.map((p) => p.name)).toEqual([
      'overview',
      'timelines',
      'proxies',
      'link-1-incidents',
      'link-2-stuck',
      'link-3-no-such-view',
    ]);
    expect(byName.overview?.status).toBe('ok');
    expect(byName.overview?.url).toBe(`${stub.url}?namespace=shop`);
    expect(byName.timelines?.url).toBe(`${stub.url}timelines?namespace=shop`);
    expect(byName.proxies?.status).toBe('error');
    expect(byName.proxies?.error).toBe(
      'error panel: Could not load proxies API_UNREACHABLE: the API server at https://10.0.0.1 did not answer',
    );
    // the pasted link is rebased onto --url, its query kept
    expect(byName['link-1-incidents']?.url).toBe(`${stub.url}incidents?at=2026-11-01T11:58:00Z`);
    expect(byName['link-1-incidents']?.status).toBe('ok');
    expect(byName['link-2-stuck']?.error).toContain('still loading after 3 s');
    expect(byName['link-3-no-such-view']?.error).toContain('HTTP 404');
    expect(stub.requests).toContain('/timelines?namespace=shop');
    for (const p of report.pages) {
      expect(p.file).not.toBeNull();
      const size = pngSize(fs.readFileSync(path.join(dir, p.file as string)));
      expect(size?.width).toBe(1024);
    }
    // full page, and taken after the data replaced the placeholder (150 rows do not fit in 900 px)
    const overview = pngSize(fs.readFileSync(path.join(dir, byName.overview?.file as string)));
    expect(overview?.height).toBeGreaterThan(900);
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    for (const p of report.pages) {
      expect(html).toContain(`data-page="${p.name}"`);
      expect(html).toContain(`src="${p.file}"`);
    }
    expect(html).toContain(`<a href="${stub.url}timelines?namespace=shop">`);
    // errors first: the first section is an error page
    const firstSection = /<section [^>]*data-status="(\w+)"/.exec(html);
    expect(firstSection?.[1]).toBe('error');
    expect(html.indexOf('id="errors"')).toBeLessThan(html.indexOf('<section'));
    const pdf = fs.readFileSync(path.join(dir, 'report.pdf'));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 120_000);

  it('exits 0 when every page shows data, in the default timestamped directory', async () => {
    const t = io(tmp);
    const code = await run(['--url', stub.url.replace(/\/$/, ''), '--views', 'overview'], t.sink);
    expect(t.err()).toBe('');
    expect(code).toBe(0);
    const dir = path.join(tmp, 'meshdx-report-20261101T120000Z');
    const report = readReport(dir);
    expect(report.pages).toEqual([
      { name: 'overview', url: stub.url, file: '01-overview.png', status: 'ok' },
    ]);
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).not.toContain('id="errors"');
    expect(fs.existsSync(path.join(dir, 'report.pdf'))).toBe(false);
  }, 60_000);

  it('--snapshot captures the frozen page and its JSON byte for byte; a gone one is an error page', async () => {
    const t = io(tmp);
    const gone = 'Z29uZS1zbmFwc2hvdC0wMg';
    const code = await run(
      [
        '--url',
        stub.url,
        '--out',
        'r-snap',
        '--views',
        'none',
        '--snapshot',
        STUB_SNAPSHOT.id,
        '--snapshot',
        `http://elsewhere:3000/snapshots/${gone}`,
        '--timeout',
        '5',
      ],
      t.sink,
    );
    expect(code).toBe(1);
    const dir = path.join(tmp, 'r-snap');
    const report = readReport(dir);
    const kept = report.pages.find((p) => p.name === `snapshot-${STUB_SNAPSHOT.id}`);
    expect(kept).toMatchObject({ status: 'ok', json: `01-snapshot-${STUB_SNAPSHOT.id}.json` });
    expect(
      fs.readFileSync(path.join(dir, kept?.json ?? '')).equals(Buffer.from(STUB_SNAPSHOT.body)),
    ).toBe(true);
    const missing = report.pages.find((p) => p.name === `snapshot-${gone}`);
    expect(missing?.status).toBe('error');
    expect(missing?.error).toContain(`answered 404: no snapshot "${gone}" in this store`);
    expect(missing?.json).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toContain(
      `frozen JSON: <a href="01-snapshot-${STUB_SNAPSHOT.id}.json">`,
    );
  });

  it('exits 2 naming the URL and the port-forward when nothing listens', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const t = io(tmp);
    const code = await run(['--url', url, '--out', 'r-unreachable'], t.sink);
    expect(code).toBe(2);
    expect(t.err()).toContain(`meshdx is not reachable at ${url}/`);
    expect(t.err()).toContain('ECONNREFUSED');
    expect(t.err()).toContain(`kubectl -n meshdx port-forward svc/meshdx ${port}:80`);
    expect(fs.existsSync(path.join(tmp, 'r-unreachable'))).toBe(false);
  });

  it('exits 2 naming CHROMIUM_PATH and the apt-get command when Chromium is missing', async () => {
    const noChrome = runReportWith(() => ({
      ...defaultDeps(),
      env: { CHROMIUM_PATH: '/nonexistent/chromium' },
    }));
    const t = io(tmp);
    expect(await noChrome(['--url', stub.url, '--out', 'r-nochrome'], t.sink)).toBe(2);
    expect(t.err()).toContain('/nonexistent/chromium');
    expect(t.err()).toContain('CHROMIUM_PATH');
    expect(t.err()).toContain('apt-get install -y chromium');
  });

  it('exits 2 on bad usage before touching the network', async () => {
    const t = io(tmp);
    const before = stub.requests.length;
    expect(await run(['--url', stub.url, '--views', 'overview,graphs'], t.sink)).toBe(2);
    expect(t.err()).toContain('unknown view graphs');
    expect(await run(['--url', stub.url, '--bogus'], t.sink)).toBe(2);
    expect(await run(['--url', stub.url, '--link', 'ftp://x/y'], t.sink)).toBe(2);
    expect(t.err()).toContain('only http:// and https:// links');
    expect(stub.requests.length).toBe(before);
  });
});
