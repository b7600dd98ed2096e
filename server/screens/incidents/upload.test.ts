import { describe, it, expect } from 'vitest';
import { readLimitedText } from './upload';

const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://x/api/incidents/upload', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit);

describe('readLimitedText', () => {
  it('reads a body within the limit as UTF-8', async () => {
    const read = await readLimitedText(post('ä 503 UC\n'), 100);
    expect(read).toEqual({
      text: 'ä 503 UC\n',
      bytes: new TextEncoder().encode('ä 503 UC\n'),
      tooLarge: false,
    });
  });

  it('refuses a body over the limit, by header or while streaming', async () => {
    expect((await readLimitedText(post('x'.repeat(101)), 100)).tooLarge).toBe(true);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(40));
        c.close();
      },
    });
    expect(await readLimitedText(post(stream), 100)).toEqual({
      text: '',
      bytes: new Uint8Array(0),
      tooLarge: true,
    });
  });
});
