import { describe, expect, it } from 'vitest';
import { pageQuery } from './page-params';

describe('pageQuery', () => {
  it('names the parameters a page does not read, besides context and the window it reads', async () => {
    const q = await pageQuery(
      null,
      '/timelines',
      { namespce: 'shop', verdict: 'race', context: 'prod', from: 'now-1h', utm: ['a', 'b'] },
      ['from', 'to'],
    );
    expect(q.problem).toBeNull();
    expect(q.ignored).toEqual([
      { name: 'namespce', values: ['shop'], meant: 'namespace' },
      { name: 'utm', values: ['a', 'b'], meant: null },
    ]);
    // what it reads, and only that, is what the view gets
    expect(q.params?.toString()).toBe('verdict=race');
  });

  it('a page that reads no query names everything but the context', async () => {
    const q = await pageQuery(null, '/pods/[namespace]/[name]', { context: 'c', tab: 'events' });
    expect(q.ignored).toEqual([{ name: 'tab', values: ['events'], meant: null }]);
  });

  it('a bad value of a parameter it reads is still the problem, not an ignored parameter', async () => {
    const q = await pageQuery(null, '/findings', { severity: 'fatal', sevrity: 'error' });
    expect(q.problem?.code).toBe('INVALID_PARAMETER');
    expect(q.problem?.message).toContain('severity');
    expect(q.ignored).toBeNull();
  });
});
