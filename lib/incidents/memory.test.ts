import { describe, expect, it } from 'vitest';
import { retentionText, windowMemory } from './memory';

describe('windowMemory', () => {
  it('says what the window holds and from where, in one sentence', () => {
    const m = windowMemory(
      { view: 1000, live: 30, deletion: 10, otlp: 146, upload: 0 },
      ['shop/web-3', 'shop/web-1', 'shop/web-2'],
      { readNow: 2, fromStoreOnly: 4 },
    );
    expect(m.failing).toBe(1186);
    expect(m.whileAlive).toBe(1040);
    expect(m.fromReceiver).toBe(146);
    expect(m.goneUnread).toEqual(['shop/web-1', 'shop/web-2', 'shop/web-3']);
    expect(m.text).toBe(
      '1,186 failing requests in the store: 1,040 recorded while the client pods were alive, 146 from the receiver; logs of 3 client pods were gone before meshdx could read them',
    );
  });

  it('an empty window says 0, and one gone pod is singular', () => {
    const m = windowMemory({ view: 0, live: 0, deletion: 0, otlp: 0, upload: 0 }, ['a/b'], {
      readNow: 0,
      fromStoreOnly: 0,
    });
    expect(m.text).toBe(
      '0 failing requests in the store; logs of 1 client pod were gone before meshdx could read them',
    );
  });
});

describe('retentionText', () => {
  it('says what is kept, since when and the limits', () => {
    expect(
      retentionText({
        records: 12345,
        bytes: 3 * 1024 * 1024,
        oldest: Date.parse('2026-11-14T08:00:00Z'),
        maxAgeDays: 14,
        maxBytes: 256 * 1024 * 1024,
        pruned: 10,
        lastPruneAt: null,
      }),
    ).toBe(
      'failing requests kept: 12,345 (3.0 MiB of 256.0 MiB), since 2026-11-14T08:00:00.000Z, for up to 14 days; 10 older records deleted',
    );
  });
});
