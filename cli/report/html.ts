import { errorsFirst, type ReportJson, type ReportPage } from './model';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A URL safe to put in href/src: http(s) or a plain relative file name, else '#'. */
function safeHref(url: string): string {
  if (/^https?:\/\//i.test(url)) return escapeHtml(url);
  if (/^[\w.-]+$/.test(url)) return escapeHtml(url);
  return '#';
}

const anchor = (i: number) => `page-${i + 1}`;

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#0f172a;background:#f8fafc}
h1{margin:0 0 4px;font-size:22px}
.meta{color:#475569;font-size:13px;margin-bottom:16px}
.errors{border:1px solid #fca5a5;background:#fef2f2;border-radius:6px;padding:12px 16px;margin-bottom:20px}
.errors h2{font-size:15px;margin:0 0 8px;color:#991b1b}
.errors li{margin:4px 0}
section{background:#fff;border:1px solid #e2e8f0;border-radius:6px;padding:12px 16px;margin-bottom:24px;break-before:page}
section h2{font-size:17px;margin:0 0 4px}
.badge{display:inline-block;font-size:12px;border-radius:4px;padding:1px 6px;margin-left:8px;vertical-align:middle}
.ok{background:#dcfce7;color:#166534}.error{background:#fee2e2;color:#991b1b}
.url{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
pre{white-space:pre-wrap;background:#fef2f2;color:#7f1d1d;padding:8px;border-radius:4px;font-size:12px}
img{display:block;max-width:100%;border:1px solid #e2e8f0;margin-top:8px}
.noimg{color:#991b1b;font-style:italic}
`;

function section(p: ReportPage, i: number): string {
  const img = p.file
    ? `<img src="${safeHref(p.file)}" alt="${escapeHtml(`screenshot of ${p.name}`)}">`
    : '<p class="noimg">no screenshot could be taken</p>';
  return [
    `<section id="${anchor(i)}" data-page="${escapeHtml(p.name)}" data-status="${p.status}">`,
    `<h2>${escapeHtml(p.name)}<span class="badge ${p.status}">${p.status}</span></h2>`,
    `<div class="url"><a href="${safeHref(p.url)}">${escapeHtml(p.url)}</a></div>`,
    p.json !== undefined
      ? `<div class="url">frozen JSON: <a href="${safeHref(p.json)}">${escapeHtml(p.json)}</a></div>`
      : '',
    p.error !== undefined ? `<pre>${escapeHtml(p.error)}</pre>` : '',
    img,
    '</section>',
  ].join('\n');
}

/**
 * index.html of a report: title with the cluster label, when, then the pages that showed an
 * error (listed, then shown first), then the rest, each with its clickable URL and screenshot.
 */
export function renderIndexHtml(report: ReportJson, meshdxUrl: string): string {
  const pages = errorsFirst(report.pages);
  const errors = pages.filter((p) => p.status === 'error');
  const title = `meshdx report: ${report.cluster}`;
  const errorList =
    errors.length === 0
      ? ''
      : [
          '<div class="errors" id="errors">',
          `<h2>${errors.length} of ${pages.length} pages showed an error</h2>`,
          '<ul>',
          ...errors.map(
            (p, i) =>
              `<li><a href="#${anchor(i)}">${escapeHtml(p.name)}</a>: ${escapeHtml(firstLine(p.error))}</li>`,
          ),
          '</ul>',
          '</div>',
        ].join('\n');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<div class="meta">cluster <b data-testid="report-cluster">${escapeHtml(report.cluster)}</b>` +
      ` · meshdx <a href="${safeHref(meshdxUrl)}">${escapeHtml(meshdxUrl)}</a>` +
      ` · created <time datetime="${escapeHtml(report.createdAt)}">${escapeHtml(report.createdAt)}</time>` +
      ` · ${pages.length} pages, ${errors.length} with errors</div>`,
    errorList,
    ...pages.map(section),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function firstLine(s: string | undefined): string {
  const line = (s ?? 'error').split('\n').find((l) => l.trim() !== '') ?? 'error';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
