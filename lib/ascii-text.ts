/**
 * ASCII text straight from bytes, for readers that scan JSON or text without decoding it whole
 * (a pod watch capture, Prometheus answers).
 */

/**
 * b[s, e), bytes the caller knows to be ASCII, as one flat string (adding up characters would
 * make a tree of them, heavy to keep), made natively from the bytes: they are ASCII here, which
 * latin1 reads as they are.
 */
export function asciiText(b: Uint8Array, s: number, e: number): string {
  if (e === s) return '';
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1', s, e);
}

/** Makes texts as asciiText does, with one Buffer over a chunk's memory for all its strings. */
class Latin1Texts {
  private viewOf: Uint8Array | null = null;
  private view: Buffer = Buffer.alloc(0);

  protected make(b: Uint8Array, s: number, e: number): string {
    if (b !== this.viewOf) {
      this.viewOf = b;
      this.view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    }
    return this.view.toString('latin1', s, e);
  }
}

/**
 * Texts made lately, by a hash of their bytes, for one reader: the namespaces, nodes, owners and
 * event types a capture repeats on every line are made once, not once per line.
 */
export class RecentAsciiTexts extends Latin1Texts {
  private readonly recent: (string | undefined)[] = new Array<string | undefined>(4096);

  /**
   * b[s, e), bytes the caller knows to be ASCII, as a string; a text made lately is given again
   * rather than made anew.
   */
  text(b: Uint8Array, s: number, e: number): string {
    const n = e - s;
    if (n === 0) return '';
    // a hash of the length and a few bytes (the ends differ most): the text is compared anyway
    const h =
      n * 7919 +
      (b[e - 1] as number) * 31 +
      (b[e - 2] ?? 0) * 961 +
      (b[e - 3] ?? 0) * 3 +
      (b[s + (n >> 1)] as number) * 17 +
      (b[s] as number);
    const slot = (h ^ (h >>> 9)) & 4095;
    const had = this.recent[slot];
    if (had !== undefined && had.length === e - s) {
      let k = 0;
      while (k < had.length && had.charCodeAt(k) === b[s + k]) k++;
      if (k === had.length) return had;
    }
    const made = this.make(b, s, e);
    this.recent[slot] = made;
    return made;
  }
}

/**
 * ASCII texts made once per distinct bytes for as long as this object is kept: a reader of
 * several answers that name the same things (the fleet's 7 Prometheus answers each name all
 * 20,000 pods) makes each name once and hands out the same string after, which also keeps its
 * hash for the maps it is looked up in.
 */
export class AsciiTexts extends Latin1Texts {
  private readonly byHash = new Map<number, string | string[]>();

  /** b[s, e), bytes the caller knows to be ASCII, as a string. */
  text(b: Uint8Array, s: number, e: number): string {
    let h = 0x811c9dc5;
    for (let p = s; p < e; p++) h = Math.imul(h ^ (b[p] as number), 0x01000193);
    // within a small integer's range: V8 keys a Map by such a number without boxing it
    h &= 0x3fffffff;
    const had = this.byHash.get(h);
    if (had !== undefined) {
      if (typeof had === 'string') {
        if (sameText(had, b, s, e)) return had;
      } else for (const t of had) if (sameText(t, b, s, e)) return t;
    }
    const made = this.make(b, s, e);
    if (had === undefined) this.byHash.set(h, made);
    else if (typeof had === 'string') this.byHash.set(h, [had, made]);
    else had.push(made);
    return made;
  }
}

function sameText(t: string, b: Uint8Array, s: number, e: number): boolean {
  if (t.length !== e - s) return false;
  for (let k = 0; k < t.length; k++) if (t.charCodeAt(k) !== b[s + k]) return false;
  return true;
}
