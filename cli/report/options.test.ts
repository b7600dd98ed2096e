import { describe, it, expect } from 'vitest';
import { VIEWS } from './model';
import { normaliseBaseUrl, parseReportArgs } from './options';

const ok = (argv: string[]) => {
  const r = parseReportArgs(argv);
  if (!r.ok) throw new Error(r.error);
  return r.options;
};
const bad = (argv: string[]) => {
  const r = parseReportArgs(argv);
  if (r.ok) throw new Error(`accepted ${argv.join(' ')}`);
  return r.error;
};

describe('parseReportArgs', () => {
  it('defaults: every view, width 1440, 60 s, no pdf, default directory', () => {
    expect(ok(['--url', 'http://localhost:3000'])).toEqual({
      url: 'http://localhost:3000/',
      out: null,
      views: [...VIEWS],
      links: [],
      snapshots: [],
      namespace: null,
      width: 1440,
      pdf: false,
      timeoutMs: 60_000,
    });
  });

  it('reads every option, repeated --link in order, views deduplicated', () => {
    const o = ok([
      '--url=https://meshdx.example/sub',
      '--out',
      'incident-42',
      '--views',
      'proxies, scoping,proxies',
      '--link',
      'http://a/incidents?x=1',
      '--link',
      '/timelines?pod=a/b',
      '--namespace',
      'shop-1',
      '--width',
      '1920',
      '--pdf',
      '--timeout',
      '5',
    ]);
    expect(o).toMatchObject({
      url: 'https://meshdx.example/sub/',
      out: 'incident-42',
      views: ['proxies', 'scoping'],
      links: ['http://a/incidents?x=1', '/timelines?pod=a/b'],
      namespace: 'shop-1',
      width: 1920,
      pdf: true,
      timeoutMs: 5000,
    });
  });

  it('--views none captures only the links', () => {
    expect(ok(['--url', 'http://x', '--views', 'none', '--link', '/incidents']).views).toEqual([]);
    expect(bad(['--url', 'http://x', '--views', 'none'])).toContain('nothing to capture');
  });

  it('--snapshot takes ids and Share links, and names one that is neither', () => {
    const id = 'Zm9vYmFyYmF6cXV4cXV1eA';
    const o = ok(['--url', 'http://x', '--views', 'none', '--snapshot', id]);
    expect(o.snapshots).toEqual([id]);
    expect(
      ok(['--url', 'http://x', '--snapshot', `http://y/snapshots/${id}?context=a`]).snapshots,
    ).toHaveLength(1);
    expect(bad(['--url', 'http://x', '--snapshot', 'abc'])).toBe(
      '--snapshot abc is not a snapshot id (the 22 characters after /snapshots/ in a Share link) or such a link',
    );
    expect(bad(['--url', 'http://x', '--snapshot', `/incidents/${id}`])).toContain(
      'not a snapshot',
    );
  });

  it('says what is wrong', () => {
    expect(bad([])).toBe('--url is required');
    expect(bad(['--url', 'localhost:3000'])).toContain('only http://');
    expect(bad(['--url', 'not a url'])).toContain('is not a URL');
    expect(bad(['--url', 'http://x', '--views', 'overview,graph'])).toContain('unknown view graph');
    expect(bad(['--url', 'http://x', '--views', ','])).toContain('--views is empty');
    expect(bad(['--url', 'http://x', '--width', '12px'])).toContain('--width 12px');
    expect(bad(['--url', 'http://x', '--width', '100'])).toContain('between 320 and 7680');
    expect(bad(['--url', 'http://x', '--timeout', '0'])).toContain('--timeout 0');
    expect(bad(['--url', 'http://x', '--namespace', 'Bad_NS'])).toContain('namespace');
    expect(bad(['--url', 'http://x', '--out', ' '])).toContain('--out is empty');
    expect(bad(['--url', 'http://x', '--frobnicate'])).toContain('--frobnicate');
    expect(bad(['--url', 'http://x', 'extra'])).toContain('extra');
  });
});

describe('normaliseBaseUrl', () => {
  it('drops query and fragment and ends the path with a slash', () => {
    expect(normaliseBaseUrl('http://127.0.0.1:8080/proxies?namespace=a#x')).toEqual({
      url: 'http://127.0.0.1:8080/proxies/',
    });
    expect(normaliseBaseUrl('http://h')).toEqual({ url: 'http://h/' });
  });
});
