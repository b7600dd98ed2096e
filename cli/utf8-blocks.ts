/**
 * Text kept as UTF-8 in blocks of memory outside the JavaScript heap, added piece by piece.
 * `meshdx attribute --json` holds every item of its report until the counts that head it are
 * known: as strings, tens of megabytes would be copied by every young-generation collection
 * on the thread that also finishes the items. Pieces are gathered into runs of about
 * `runChars` and each run is encoded at once (one native call per run, not per piece); a run
 * is never split between two blocks, so each block is valid UTF-8 on its own.
 */
export class Utf8Blocks {
  private readonly full: Buffer[] = [];
  private block: Buffer;
  private used = 0;
  private pieces = 0;
  private run: string[] = [];
  private runLength = 0;

  constructor(
    private readonly blockBytes = 1 << 20,
    private readonly runChars = 64 * 1024,
  ) {
    this.block = Buffer.allocUnsafe(0);
  }

  /** Whether nothing was added yet. */
  get empty(): boolean {
    return this.pieces === 0;
  }

  /** Adds a piece (push: so that a writer of pieces can take this for an array). */
  push(text: string): void {
    this.pieces++;
    this.run.push(text);
    this.runLength += text.length;
    if (this.runLength >= this.runChars) this.encodeRun();
  }

  /** The blocks, in order, with the bytes added so far. */
  blocks(): Buffer[] {
    this.encodeRun();
    this.seal();
    return this.full;
  }

  private encodeRun(): void {
    if (this.run.length === 0) return;
    const text = this.run.length === 1 ? (this.run[0] as string) : this.run.join('');
    this.run = [];
    this.runLength = 0;
    // at most 3 bytes per UTF-16 unit
    const most = text.length * 3;
    if (this.used + most > this.block.length) {
      this.seal();
      this.block = Buffer.allocUnsafe(Math.max(this.blockBytes, most));
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  private seal(): void {
    if (this.used === 0) return;
    this.full.push(this.block.subarray(0, this.used));
    this.block = this.block.subarray(this.used);
    this.used = 0;
  }
}
