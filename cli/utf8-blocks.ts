/**
 * Text kept as UTF-8 in blocks of memory outside the JavaScript heap, added piece by piece.
 * `meshdx attribute --json` holds every item of its report until the counts that head it are
 * known: as strings, tens of megabytes would be copied by every young-generation collection
 * on the thread that also finishes the items. A piece is never split between two blocks, so
 * each block is valid UTF-8 on its own.
 */
export class Utf8Blocks {
  private readonly full: Buffer[] = [];
  private block: Buffer;
  private used = 0;
  private pieces = 0;

  constructor(private readonly blockBytes = 1 << 20) {
    this.block = Buffer.allocUnsafe(blockBytes);
  }

  /** Pieces added so far. */
  get count(): number {
    return this.pieces;
  }

  add(text: string): void {
    this.pieces++;
    // at most 3 bytes per UTF-16 unit
    const most = text.length * 3;
    if (this.used + most > this.block.length) {
      this.seal();
      if (most > this.blockBytes) {
        this.full.push(Buffer.from(text, 'utf8'));
        return;
      }
      this.block = Buffer.allocUnsafe(this.blockBytes);
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  /** The blocks, in order, with the bytes added so far. */
  blocks(): Buffer[] {
    this.seal();
    return this.full;
  }

  private seal(): void {
    if (this.used === 0) return;
    this.full.push(this.block.subarray(0, this.used));
    this.block = this.used < this.block.length ? this.block.subarray(this.used) : Buffer.alloc(0);
    this.used = 0;
  }
}
