import { describe, expect, it } from 'vitest';
import { dashboardLink, podPageLink } from './answers';
import type { Dashboard } from './dashboard';
import { openLink } from './open-link';
import { bearerOf } from './serve';
import { windowAround } from './tools';

/** A dashboard that records what it was asked and answers every GET with `answer`. */
function fakeDashboard(base: string, answer: unknown = { error: { code: 'X', message: 'x' } }) {
  const asked: string[] = [];
  const dash: Dashboard = {
    base,
    get(path, query, context) {
      asked.push(`${path}?${query.toString()}|${context ?? ''}`);
      return Promise.resolve({ ok: false, status: 418, error: answer as never });
    },
  };
  return { dash, asked };
}

describe('meshdx mcp: links, tokens, windows', () => {
  it('links keep the page URL state, the context, and a dashboard served under a path', () => {
    expect(
      dashboardLink(
        'https://m.example/meshdx/',
        '/incidents',
        { ip: '10.0.0.1', from: undefined },
        'prod eu',
      ),
    ).toBe('https://m.example/meshdx/incidents?ip=10.0.0.1&context=prod%20eu');
    expect(
      podPageLink('http://127.0.0.1:3000/', { namespace: 'shop', name: 'p-1', uid: 'u-9' }, null),
    ).toBe('http://127.0.0.1:3000/pods/shop/p-1?uid=u-9');
  });

  it('reads a bearer token from Authorization, nothing else', () => {
    expect(bearerOf('Bearer abc.def')).toBe('abc.def');
    expect(bearerOf('bearer   abc ')).toBe('abc');
    expect(bearerOf('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerOf('Bearer')).toBeNull();
    expect(bearerOf('Bearer a b')).toBeNull();
    expect(bearerOf(undefined)).toBeNull();
  });

  it('`at` is five minutes each side; a time that is none is the 400 naming `at`', () => {
    expect(windowAround('2026-11-01T12:00:00Z', 0)).toEqual({
      from: '2026-11-01T11:55:00.000Z',
      to: '2026-11-01T12:05:00.000Z',
    });
    expect(windowAround('now', Date.parse('2026-11-01T12:00:00Z')).from).toBe(
      '2026-11-01T11:55:00.000Z',
    );
    expect(() => windowAround('yesterday', 0)).toThrow(/^at: /);
    expect(() => windowAround('1793534400', 0)).toThrow(/^at: /);
  });

  it('open_link asks the view of the path below the base, with the link query and context', async () => {
    const { dash, asked } = fakeDashboard('https://m.example/meshdx/');
    const r = await openLink(
      dash,
      'https://elsewhere.example/meshdx/incidents?ip=10.0.0.1&context=prod',
    );
    expect(r.ok).toBe(false);
    expect(asked).toEqual(['/api/incidents?ip=10.0.0.1|prod']);
    // the refusal is the dashboard's, as it came
    expect(r).toMatchObject({ status: 418, error: { error: { code: 'X' } } });
  });

  it('open_link refuses what is no view, no pod reference, no snapshot id, in the API shape', async () => {
    const { dash, asked } = fakeDashboard('http://127.0.0.1:3000/');
    expect(await openLink(dash, '/settings')).toMatchObject({
      status: 404,
      error: { error: { code: 'UNKNOWN_VIEW' } },
    });
    expect(await openLink(dash, '/timelines?pod=shop')).toMatchObject({
      status: 400,
      error: {
        error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/^pod: /) as string },
      },
    });
    expect(await openLink(dash, '/snapshots/short')).toMatchObject({
      status: 400,
      error: {
        error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/^id: /) as string },
      },
    });
    expect(await openLink(dash, 'http://[bad')).toMatchObject({ status: 400 });
    expect(asked).toEqual([]);
  });
});
