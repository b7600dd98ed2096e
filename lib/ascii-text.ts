/**
 * ASCII text straight from bytes, for readers that scan JSON or text without decoding it whole
 * (a pod watch capture, Prometheus answers).
 */

/**
 * Texts made lately, by a hash of their bytes: the namespaces, nodes, owners and event types a
 * capture repeats on every line are made once, not once per line.
 */
const recent: (string | undefined)[] = new Array<string | undefined>(4096);

let viewOf: Uint8Array | null = null;
let view: Buffer = Buffer.alloc(0);
/** A Buffer over the same memory as b (one per chunk read, not one per string). */
function latin1View(b: Uint8Array): Buffer {
  if (b !== viewOf) {
    viewOf = b;
    view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }
  return view;
}

/**
 * b[s, e), bytes the caller knows to be ASCII, as a string; a text made lately is given again
 * rather than made anew.
 */
export function asciiText(b: Uint8Array, s: number, e: number): string {
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
  const had = recent[slot];
  if (had !== undefined && had.length === e - s) {
    let k = 0;
    while (k < had.length && had.charCodeAt(k) === b[s + k]) k++;
    if (k === had.length) return had;
  }
  const made = makeAscii(b, s, e);
  recent[slot] = made;
  return made;
}

/**
 * b[s, e) as one flat string (adding up characters would make a tree of them, heavy to keep),
 * made natively from the bytes: they are ASCII here, which latin1 reads as they are.
 */
function makeAscii(b: Uint8Array, s: number, e: number): string {
  return latin1View(b).toString('latin1', s, e);
}

/**
 * ASCII texts made once per distinct bytes for as long as this object is kept: a reader of
 * several answers that name the same things (the fleet's 7 Prometheus answers each name all
 * 20,000 pods) makes each name once and hands out the same string after, which also keeps its
 * hash for the maps it is looked up in.
 */
export class AsciiTexts {
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
    // made here, not through asciiText, whose cache of recent texts would be searched for nothing
    const made = makeAscii(b, s, e);
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
