import { describe, expect, it } from 'vitest';
import { Utf8Blocks } from './utf8-blocks';

const text = (blocks: Buffer[]) =>
  blocks.map((b) => new TextDecoder('utf-8', { fatal: true }).decode(b));

describe('Utf8Blocks', () => {
  it('keeps pieces in order, each block valid UTF-8 alone', () => {
    // blocks of 16 bytes, runs of 4 characters: 2- and 3-byte characters and an astral one
    // (a surrogate pair) fall on run and block ends
    const b = new Utf8Blocks(16, 4);
    const pieces = ['abc', 'é'.repeat(4), '€x', 'plain text', '😀', '', 'z'.repeat(5)];
    for (const p of pieces) b.push(p);
    expect(b.empty).toBe(false);
    const blocks = b.blocks();
    expect(blocks.length).toBeGreaterThan(1);
    expect(text(blocks).join('')).toBe(pieces.join(''));
  });

  it('gives a run larger than a block a block of its own, and goes on after blocks()', () => {
    const b = new Utf8Blocks(8, 1);
    b.push('12');
    b.push('ü'.repeat(10));
    b.push('34');
    const blocks = b.blocks();
    expect(blocks[0]?.length).toBe(2);
    expect(text(blocks).join('')).toBe(`12${'ü'.repeat(10)}34`);
    b.push('56');
    expect(text(b.blocks()).join('')).toBe(`12${'ü'.repeat(10)}3456`);
  });

  it('has no blocks when nothing was added', () => {
    const b = new Utf8Blocks();
    expect(b.empty).toBe(true);
    expect(b.blocks()).toEqual([]);
  });
});
