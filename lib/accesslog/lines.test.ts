import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './lines';

function split(text: string, max: number, step: number) {
  const out: [string, boolean][] = [];
  const s = createLineSplitter(
    (b, a, e, cut) => out.push([new TextDecoder().decode(b.subarray(a, e)), cut === true]),
    max,
  );
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += step) s.push(bytes.subarray(i, i + step));
  s.end();
  return { out, lines: s.lines };
}

describe('line splitter limits', () => {
  it('hands over a line longer than the limit cut, in any chunking, and goes on', () => {
    const text = `short\n${'x'.repeat(50)}\nafter\n${'y'.repeat(30)}`;
    for (const step of [1, 7, 1000]) {
      const r = split(text, 10, step);
      expect(r.out).toEqual([
        ['short', false],
        ['xxxxxxxxxx', true],
        ['after', false],
        ['yyyyyyyyyy', true],
      ]);
      expect(r.lines).toBe(4);
    }
  });

  it('keeps no more than the limit of a file without line breaks', () => {
    const s = createLineSplitter(() => undefined, 64);
    const chunk = new Uint8Array(1000).fill(65);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 2000; i++) s.push(chunk); // 2 MB of one line: linear, bounded
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
    let got: [number, boolean] | null = null;
    const t = createLineSplitter((b, a, e, cut) => void (got = [e - a, cut === true]), 64);
    t.push(chunk);
    t.end();
    expect(got).toEqual([64, true]);
  });
});
