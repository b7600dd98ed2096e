import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import type { CliIO } from '../io';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE } from '../io';
import { capturePage } from './capture';
import {
  checkChromium,
  chromiumPath,
  launchChromium,
  type Env,
  type LaunchResult,
} from './chromium';
import { renderIndexHtml } from './html';
import type { ReportJson, ReportOptions, ReportPage } from './model';
import { probeMeshdx, type FetchLike } from './probe';
import { defaultOutDir } from './stamp';
import { planPages } from './targets';

export interface ReportDeps {
  env: Env;
  now: () => Date;
  fetch: FetchLike;
  launch: (executablePath: string) => Promise<LaunchResult>;
}

export const defaultDeps = (): ReportDeps => ({
  env: process.env,
  now: () => new Date(),
  fetch: (url, init) => fetch(url, init),
  launch: launchChromium,
});

const VIEWPORT_HEIGHT = 900;

function makeDir(dir: string): string | null {
  try {
    fs.mkdirSync(dir, { recursive: true });
    return null;
  } catch (e) {
    return `cannot create ${dir}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function capturePages(
  browser: Browser,
  o: ReportOptions,
  plans: ReturnType<typeof planPages>['pages'],
  dir: string,
  io: CliIO,
  fetchImpl: FetchLike,
): Promise<ReportPage[]> {
  const context = await browser.newContext({
    viewport: { width: o.width, height: VIEWPORT_HEIGHT },
    deviceScaleFactor: 1,
  });
  const pages: ReportPage[] = [];
  try {
    for (const plan of plans) {
      const page = await context.newPage();
      const r = await capturePage(page, plan, dir, o.timeoutMs);
      if (o.pdf && r.file) {
        const pdf = r.file.replace(/\.png$/, '.pdf');
        try {
          await page.pdf({ path: path.join(dir, pdf), format: 'A4', printBackground: true });
          r.pdf = pdf;
        } catch (e) {
          io.stderr(
            `meshdx report: ${pdf} could not be printed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`,
          );
        }
      }
      await page.close().catch(() => undefined);
      if (plan.json) {
        const problem = await saveJson(plan.json, dir, fetchImpl, o.timeoutMs);
        if (problem === null) r.json = plan.json.file;
        else {
          r.status = 'error';
          r.error = r.error ? `${r.error}\n${problem}` : problem;
        }
      }
      pages.push(r);
      const first = r.error?.split('\n')[0];
      io.stdout(
        `${r.status === 'ok' ? 'ok   ' : 'ERROR'} ${plan.name}  ${plan.url}${first ? `\n      ${first}` : ''}\n`,
      );
    }
  } finally {
    await context.close().catch(() => undefined);
  }
  return pages;
}

/**
 * A snapshot's frozen JSON, written as the server keeps it (the bytes, not re-serialised), or
 * why it could not be.
 */
async function saveJson(
  json: { url: string; file: string },
  dir: string,
  fetchImpl: FetchLike,
  timeoutMs: number,
): Promise<string | null> {
  try {
    const res = await fetchImpl(json.url, { signal: AbortSignal.timeout(timeoutMs) });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) {
      let message = bytes.toString('utf8').slice(0, 300);
      try {
        message = (JSON.parse(message) as { error: { message: string } }).error.message;
      } catch {
        // not meshdx's JSON error: its first bytes say enough
      }
      return `${json.url} answered ${res.status}: ${message}`;
    }
    fs.writeFileSync(path.join(dir, json.file), bytes);
    return null;
  } catch (e) {
    return `${json.url} could not be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function printPdf(
  browser: Browser,
  indexFile: string,
  pdfFile: string,
): Promise<string | null> {
  const page = await browser.newPage();
  try {
    await page.goto(pathToFileURL(indexFile).toString(), { waitUntil: 'load' });
    await page.pdf({
      path: pdfFile,
      format: 'A4',
      printBackground: true,
      margin: { top: '10mm', bottom: '10mm', left: '8mm', right: '8mm' },
    });
    return null;
  } catch (e) {
    return `report.pdf could not be printed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * Captures the views and deep links of a running meshdx into a report directory. Exit 0 when
 * every page showed data, 1 when some page showed an error (the report is still written), 2 for
 * bad usage, meshdx not reachable, or no Chromium.
 */
export async function runReport(o: ReportOptions, io: CliIO, deps: ReportDeps): Promise<number> {
  const err = (m: string) => io.stderr(`meshdx report: ${m}\n`);
  const plan = planPages(o);
  if (plan.errors.length > 0) {
    plan.errors.forEach(err);
    return EXIT_USAGE;
  }
  plan.notes.forEach((n) => err(`note: ${n}`));
  const probe = await probeMeshdx(o.url, deps.fetch);
  if (!probe.ok) {
    err(probe.message);
    return EXIT_USAGE;
  }
  if (!probe.clusterReachable)
    err(
      `note: meshdx at ${o.url} cannot read its cluster (${probe.clusterError ?? 'unreachable'}); pages will show it`,
    );
  const exe = chromiumPath(deps.env);
  const missing = checkChromium(exe);
  if (missing) {
    err(missing);
    return EXIT_USAGE;
  }
  const createdAt = deps.now();
  const dir = path.resolve(io.cwd, o.out ?? defaultOutDir(createdAt));
  const dirError = makeDir(dir);
  if (dirError) {
    err(dirError);
    return EXIT_USAGE;
  }
  const launched = await deps.launch(exe);
  if (!launched.ok) {
    err(launched.message);
    return EXIT_USAGE;
  }
  const browser = launched.browser;
  try {
    const pages = await capturePages(browser, o, plan.pages, dir, io, deps.fetch);
    const report: ReportJson = {
      cluster: probe.cluster,
      createdAt: createdAt.toISOString(),
      pages,
    };
    fs.writeFileSync(path.join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    const indexFile = path.join(dir, 'index.html');
    fs.writeFileSync(indexFile, renderIndexHtml(report, o.url));
    let pdfError: string | null = null;
    if (o.pdf) pdfError = await printPdf(browser, indexFile, path.join(dir, 'report.pdf'));
    if (pdfError) err(pdfError);
    const failed = pages.filter((p) => p.status === 'error').length;
    io.stdout(
      `report: ${indexFile}${o.pdf && !pdfError ? ` and ${path.join(dir, 'report.pdf')}` : ''}\n`,
    );
    if (failed > 0)
      err(`${failed} of ${pages.length} pages showed an error (listed first in the report)`);
    return failed > 0 || pdfError ? EXIT_FAIL : EXIT_OK;
  } finally {
    await browser.close().catch(() => undefined);
  }
}
