import { describe, expect, it } from 'vitest';
import { Utf8Blocks } from './utf8-blocks';

const text = (blocks: Buffer[]) =>
  blocks.map((b) => new TextDecoder('utf-8', { fatal: true }).decode(b));

describe('Utf8Blocks', () => {
  it('keeps pieces in order, never splitting one, each block valid UTF-8 alone', () => {
    const b = new Utf8Blocks(16);
    // 2- and 3-byte characters, and an astral one (a surrogate pair), near block ends
    const pieces = ['abc', 'é'.repeat(4), '€x', 'plain text', '😀', '', 'z'.repeat(5)];
    for (const p of pieces) b.add(p);
    expect(b.count).toBe(pieces.length);
    const blocks = b.blocks();
    expect(blocks.length).toBeGreaterThan(1);
    expect(text(blocks).join('')).toBe(pieces.join(''));
    for (const block of blocks) expect(block.length).toBeLessThanOrEqual(16);
  });

  it('gives a piece larger than a block a block of its own, and goes on after blocks()', () => {
    const b = new Utf8Blocks(8);
    b.add('12');
    b.add('ü'.repeat(10));
    b.add('34');
    expect(text(b.blocks())).toEqual(['12', 'ü'.repeat(10), '34']);
    b.add('56');
    expect(text(b.blocks()).join('')).toBe(`12${'ü'.repeat(10)}3456`);
  });

  it('has no blocks when nothing was added', () => {
    expect(new Utf8Blocks().blocks()).toEqual([]);
  });
});
