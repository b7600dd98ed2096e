import { describe, it, expect } from 'vitest';
import { pngSize } from './png';

/** A valid 3x2 PNG header (signature + IHDR), hand-assembled. */
function header(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  return b;
}

describe('pngSize', () => {
  it('reads IHDR width and height', () => {
    expect(pngSize(header(1440, 4321))).toEqual({ width: 1440, height: 4321 });
  });

  it('rejects what is not a PNG', () => {
    expect(pngSize(new Uint8Array(10))).toBeNull();
    expect(pngSize(new TextEncoder().encode('%PDF-1.7 and some more bytes here'))).toBeNull();
    const wrongChunk = header(1, 1);
    wrongChunk[12] = 0x58;
    expect(pngSize(wrongChunk)).toBeNull();
  });
});
