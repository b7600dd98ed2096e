import { describe, it, expect } from 'vitest';
import { escapeHtml, renderIndexHtml } from './html';
import type { ReportJson } from './model';

const report: ReportJson = {
  cluster: 'prod <eu-1>',
  createdAt: '2026-11-01T12:00:00.000Z',
  pages: [
    { name: 'overview', url: 'http://h/?a=1&b=2', file: '01-overview.png', status: 'ok' },
    {
      name: 'proxies',
      url: 'http://h/proxies',
      file: '02-proxies.png',
      status: 'error',
      error: 'error panel: API_UNREACHABLE\n<script>x</script>',
    },
    {
      name: 'link-1-x',
      url: 'javascript:alert(1)',
      file: null,
      status: 'error',
      error: 'could not open the page',
    },
  ],
};

describe('renderIndexHtml', () => {
  const html = renderIndexHtml(report, 'http://h/');

  it('titles the report with the cluster label, escaped', () => {
    expect(html).toContain('<title>meshdx report: prod &lt;eu-1&gt;</title>');
    expect(html).toContain('2026-11-01T12:00:00.000Z');
    expect(html).not.toContain('<script>');
  });

  it('lists the error pages first, then shows them first', () => {
    expect(html).toContain('2 of 3 pages showed an error');
    const order = [...html.matchAll(/<section [^>]*data-page="([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['proxies', 'link-1-x', 'overview']);
    expect(html.indexOf('id="errors"')).toBeLessThan(html.indexOf('<section'));
  });

  it('makes every page URL clickable and shows its screenshot', () => {
    expect(html).toContain('<a href="http://h/?a=1&amp;b=2">');
    expect(html).toContain('<img src="01-overview.png"');
    expect(html).toContain('no screenshot could be taken');
    expect(html).not.toContain('href="javascript:');
  });

  it('has no error list when every page is ok', () => {
    const okOnly = renderIndexHtml({ ...report, pages: [report.pages[0]!] }, 'http://h/');
    expect(okOnly).not.toContain('id="errors"');
    expect(okOnly).toContain('1 pages, 0 with errors');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});
