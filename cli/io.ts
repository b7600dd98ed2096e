import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { findDeepNesting } from '../lib/json-depth';
import type { Gatherer } from '../lib/gather/request';

/** What a command gets from the process, so that commands can be tested without spawning. */
export interface CliIO {
  /** Text, or bytes of UTF-8 text (whole characters). */
  stdout: (text: string | Uint8Array) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** Input limits other than the defaults and the environment's (tests use small ones). */
  limits?: Partial<InputLimits>;
  /**
   * The cluster capture of `meshdx gather` (server/gather), handed over by the process that runs
   * the command line (bin/meshdx.mjs): the command line itself reaches no server/ module.
   */
  gatherer?: Gatherer;
}

/** A command: parses its own argv (without the command name) and returns the exit code. */
export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;

/**
 * Exit codes of the analysis commands (timeline, clusters, accesslog, attribute):
 * 0 the input was read (some unreadable lines may be listed, with their numbers);
 * 1 an entry of a config dump could not be read (the rest was);
 * 2 nothing in the input could be used, or it cannot be read at all, or bad usage.
 */
export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

/** Bounds on what a command reads, so that no input makes it crash, hang or eat the machine. */
export interface InputLimits {
  /** Largest JSON/YAML document read whole (config dumps, pod lists): MESHDX_MAX_INPUT_BYTES. */
  maxDocumentBytes: number;
  /** Deepest nesting of a JSON/YAML document: MESHDX_MAX_DEPTH. */
  maxDepth: number;
  /** Longest line of a log (longer ones are listed as unreadable): MESHDX_MAX_LINE_BYTES. */
  maxLineBytes: number;
  /** Largest pod watch capture read as a history (streamed): MESHDX_MAX_HISTORY_BYTES. */
  maxHistoryBytes: number;
}

export const DEFAULT_LIMITS: InputLimits = {
  maxDocumentBytes: 256 * 1024 * 1024,
  maxDepth: 256,
  maxLineBytes: 1024 * 1024,
  maxHistoryBytes: 1024 * 1024 * 1024,
};

const ENV: Record<keyof InputLimits, string> = {
  maxDocumentBytes: 'MESHDX_MAX_INPUT_BYTES',
  maxDepth: 'MESHDX_MAX_DEPTH',
  maxLineBytes: 'MESHDX_MAX_LINE_BYTES',
  maxHistoryBytes: 'MESHDX_MAX_HISTORY_BYTES',
};

/** Defaults, then the environment, then what the caller set. */
export function limitsOf(io: CliIO, env: NodeJS.ProcessEnv = process.env): InputLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(ENV) as (keyof InputLimits)[]) {
    const text = env[ENV[key]];
    const n = text === undefined ? NaN : Number(text);
    if (Number.isInteger(n) && n > 0) out[key] = n;
    const set = io.limits?.[key];
    if (set !== undefined && set > 0) out[key] = set;
  }
  return out;
}

export function envName(key: keyof InputLimits): string {
  return ENV[key];
}

/** 2147483648 -> "2.0 GiB". */
export function bytesText(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

const STDIN_PATHS: ReadonlySet<string> = new Set(['/dev/stdin', '/proc/self/fd/0', '/dev/fd/0']);

/**
 * Opens an input for reading. `/dev/stdin` that is a socket (a program that spawned meshdx
 * with a socket pair, as Node does) cannot be opened by path on Linux (ENXIO): its descriptor
 * 0 is used instead, as a shell pipe would be.
 */
export function openInput(file: string): number {
  try {
    return fs.openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO' && STDIN_PATHS.has(file)) return 0;
    throw e;
  }
}

/** Checks that a path is a readable regular file (or a pipe, when allowed); a message or null. */
export function checkReadable(file: string, options: { pipe?: boolean } = {}): string | null {
  try {
    const st = fs.statSync(file);
    // a pipe (`kubectl logs ... | meshdx attribute /dev/stdin`) where the reader can take one
    const piped = options.pipe === true && (st.isFIFO() || st.isCharacterDevice() || st.isSocket());
    if (!st.isFile() && !piped) return `${file} is not a regular file`;
    fs.accessSync(file, fs.constants.R_OK);
    return null;
  } catch (e) {
    return fileError(file, e);
  }
}

export function fileError(file: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${file}: no such file`;
  if (code === 'EACCES') return `${file}: permission denied`;
  if (code === 'EISDIR') return `${file} is a directory`;
  return `${file}: ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * Reads a whole JSON/YAML document, bounded: its size is checked before reading (a 2 GB file
 * is refused with the limit and how to raise it, never a "string too long" crash), a binary is
 * named as one, an empty file too. Returns the text or why not.
 */
export function readDocument(
  file: string,
  limits: InputLimits,
): { text: string } | { error: string } {
  const unreadable = checkReadable(file);
  if (unreadable) return { error: unreadable };
  try {
    const size = fs.statSync(file).size;
    if (size > limits.maxDocumentBytes)
      return {
        error: `${file} is ${bytesText(size)}, more than the ${bytesText(limits.maxDocumentBytes)} meshdx reads as one document (set ${ENV.maxDocumentBytes} to raise the limit)`,
      };
    const bytes = fs.readFileSync(file);
    const first = bytes.findIndex((b) => b !== 32 && b !== 9 && b !== 10 && b !== 13);
    if (first < 0) return { error: `${file} is empty` };
    if (bytes.subarray(0, 64 * 1024).includes(0))
      return { error: `${file} is binary data, not a JSON or YAML text` };
    return { text: bytes.toString('utf8') };
  } catch (e) {
    return { error: fileError(file, e) };
  }
}

/** Why a document is nested too deeply for the parsers (where, and the limit), or null. */
export function depthError(file: string, text: string, limits: InputLimits): string | null {
  const deep = findDeepNesting(text, limits.maxDepth);
  if (!deep) return null;
  return `${file}:${deep.line}:${deep.column}: nested deeper than ${limits.maxDepth} levels: not read (set ${ENV.maxDepth} to raise the limit)`;
}

/** Whether the first bytes of an input are binary data: a NUL, or bytes that are not UTF-8. */
export function headLooksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  // a multi-byte character cut at the end of the sample is not a reason
  const cut = Math.max(0, head.length - 3);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, cut));
    return false;
  } catch {
    return true;
  }
}

/**
 * Text for the terminal: control characters other than newline and tab (a NUL, an escape
 * sequence from a hostile file) are shown as \u escapes, never written raw.
 */
export function terminalText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * An argument that is empty (or only spaces), which a shell gives for an unset variable:
 * never taken as a FILE (it would name the current folder) nor as an option's value.
 */
export function emptyArgumentError(argv: string[]): string | null {
  const i = argv.findIndex((a) => a.trim() === '');
  if (i < 0) return null;
  const before = i > 0 ? (argv[i - 1] as string) : '';
  return before.startsWith('-')
    ? `the argument after ${before} is empty: an option's value or a FILE cannot be empty`
    : `argument ${i + 1} is empty: a FILE cannot be empty`;
}

/** The options of a command parsed with node:util's parseArgs. */
export type OptionSpecs = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/**
 * What is wrong with argv for a command whose options node:util's parseArgs reads, in the words
 * of the other commands (node's own are for programmers: "Unknown option '--x'. To specify a
 * positional argument..."): an unknown flag, a value missing or looking like the next flag, a
 * value given to a switch, an argument where none is taken. Null when nothing is.
 */
export function optionsProblem(
  argv: readonly string[],
  options: OptionSpecs,
  allowPositionals = false,
): string | null {
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // a wrong flag is named before an argument out of place (often the flag's value)
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = Object.hasOwn(options, t.name) ? options[t.name] : undefined;
    if (!spec) return `unknown option ${t.rawName}`;
    if (spec.type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    if (spec.type === 'string') {
      if (t.value === undefined) return `${t.rawName} needs a value`;
      if (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-'))
        return `${t.rawName} needs a value (got ${t.value}; write ${t.rawName}=${t.value} for a value starting with "-")`;
    }
  }
  const stray = allowPositionals ? undefined : tokens.find((t) => t.kind === 'positional');
  return stray ? `unexpected argument ${stray.value}` : null;
}

/**
 * Runs a command body so that nothing it throws reaches the user as a Node stack trace: an
 * unexpected error is one line naming the command and the error, exit 2.
 */
export async function guardedCommand(
  name: string,
  io: CliIO,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (e) {
    const why =
      e instanceof RangeError && /call stack/i.test(e.message)
        ? 'input nested too deeply to read'
        : e instanceof Error
          ? e.message
          : String(e);
    io.stderr(`meshdx ${name}: cannot complete: ${why}\n`);
    return EXIT_USAGE;
  }
}
