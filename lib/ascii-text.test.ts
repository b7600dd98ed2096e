import { describe, expect, it } from 'vitest';
import { asciiText, AsciiTexts } from './ascii-text';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('AsciiTexts', () => {
  it('gives each text as its bytes read, whatever buffer and offset they are in', () => {
    const texts = new AsciiTexts();
    const a = bytes('{"pod":"cart-7d4-x2"}');
    const b = bytes('..."cart-7d4-x2","cart-7d4-x3"');
    const first = texts.text(a, 8, 19);
    expect(first).toBe('cart-7d4-x2');
    expect(texts.text(b, 4, 15)).toBe(first);
    expect(texts.text(b, 18, 29)).toBe('cart-7d4-x3');
    expect(texts.text(a, 0, 0)).toBe('');
    expect(texts.text(b, 18, 29)).toBe(texts.text(bytes('cart-7d4-x3'), 0, 11));
  });

  it('keeps texts whose hashes collide apart', () => {
    // (strings compare by value: what is tested is that neither is given for the other)
    // these two hash alike in FNV-1a (32 bits), the hash AsciiTexts files texts by
    const texts = new AsciiTexts();
    const one = texts.text(bytes('gdyf49yj'), 0, 8);
    const two = texts.text(bytes('s1mzc5ar'), 0, 8);
    const three = texts.text(bytes('gdyf49yj'), 0, 8);
    expect([one, two, three]).toEqual(['gdyf49yj', 's1mzc5ar', 'gdyf49yj']);
    expect(three).toBe(one);
    expect(texts.text(bytes('s1mzc5ar'), 0, 8)).toBe(two);
  });

  it('gives what asciiText gives', () => {
    const b = bytes('namespace=scale-000 pod=svc-0001-abc');
    const texts = new AsciiTexts();
    for (const [s, e] of [
      [0, 9],
      [10, 19],
      [24, 36],
    ] as const)
      expect(texts.text(b, s, e)).toBe(asciiText(b, s, e));
  });
});
