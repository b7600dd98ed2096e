import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures';

/**
 * The meshdx command line at its limits, run as a user runs it (bin/meshdx.mjs in a child
 * process): every bad input is exit 2 at once (idle, well within 5 s), with one message naming the file and the
 * limit hit, no stack trace and no raw control bytes.
 */
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'meshdx.mjs');
let dir = '';
const at = (name: string) => path.join(dir, name);

/**
 * How long a refusal may take, node's start included: a guard against a command that works
 * through the bad input instead of refusing it, not a measure (idle, a refusal takes well under
 * the 5 s promised; on a loaded machine one took 6.8 s, node's start mostly). A command still
 * running at HUNG_MS is stopped, and fails for its exit code.
 */
const REFUSED_GUARD_MS = 25_000;
const HUNG_MS = 60_000;

function meshdx(...args: string[]) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: HUNG_MS });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout, ms: Date.now() - started };
}

/** Exit 2 in time, stderr holds every `needle`, and neither a stack nor a control byte. */
function expectRefused(r: ReturnType<typeof meshdx>, ...needles: string[]) {
  expect(r.code, r.stderr).toBe(2);
  expect(r.ms).toBeLessThan(REFUSED_GUARD_MS);
  for (const n of needles) expect(r.stderr).toContain(n);
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(r.stderr + r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
}

function aliasBomb(): string {
  let text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  let prev = 'a';
  for (const name of 'bcdefghi') {
    text += `${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]\n`;
    prev = name;
  }
  return text;
}

const POD =
  'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: n}\nspec: {containers: [{name: c, image: i}]}\n';
const LOG =
  '[2026-11-01T12:00:00.000Z] "GET / HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 91 0 - "-" "curl" "x" "a" "10.0.0.1:80" outbound|80||a.svc - 10.0.0.1:80 10.0.0.2:1 - default\n';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-edges-cli-'));
  fs.writeFileSync(at('pod.yaml'), POD);
  fs.writeFileSync(at('access.log'), LOG);
  fs.writeFileSync(at('bomb.yaml'), aliasBomb());
  fs.writeFileSync(at('deep.json'), '['.repeat(100_000) + ']'.repeat(100_000));
  fs.writeFileSync(at('deep-flow.yaml'), `a: ${'{b: '.repeat(100_000)}1${'}'.repeat(100_000)}\n`);
  fs.writeFileSync(at('deep-block.yaml'), `${'- '.repeat(100_000)}x\n`);
  // 2 GiB of NULs, sparse: it takes no disk
  fs.closeSync(fs.openSync(at('huge.json'), 'w'));
  fs.truncateSync(at('huge.json'), 2 * 1024 ** 3);
  fs.writeFileSync(at('nul.json'), Buffer.alloc(4096));
  fs.writeFileSync(at('not-utf8.json'), Buffer.from([0x7b, 0xff, 0xfe, 0x80, 0x81, 0x0a, 0x7d]));
  fs.writeFileSync(at('big-text.json'), `${'{"x": 1}\n'.repeat(2000)}`);
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('YAML alias bombs', () => {
  it('findings --mesh-config names the file and the alias limit', () => {
    const r = meshdx('findings', at('pod.yaml'), '--mesh-config', at('bomb.yaml'));
    expectRefused(r, at('bomb.yaml'), 'YAML aliases expand past the limit of 100');
  });
  it.each([['findings'], ['timeline'], ['clusters']])('%s names the file and the limit', (cmd) => {
    const r = meshdx(cmd, at('bomb.yaml'));
    expectRefused(r, at('bomb.yaml'), 'YAML aliases expand past the limit of');
  });
});

describe('100,000 levels of nesting: the 256-level limit', () => {
  const files = ['deep.json', 'deep-flow.yaml', 'deep-block.yaml'];
  it.each(files)('findings %s', (f) => {
    expectRefused(meshdx('findings', at(f)), at(f), 'nested deeper than 256 levels');
  });
  it.each(files)('findings --mesh-config %s', (f) => {
    const r = meshdx('findings', at('pod.yaml'), '--mesh-config', at(f));
    expectRefused(r, at(f), 'nested deeper than 256 levels');
  });
  it.each(files)('timeline %s', (f) => {
    expectRefused(meshdx('timeline', at(f)), at(f), 'nested deeper than 256 levels');
  });
  it.each(files)('clusters %s', (f) => {
    expectRefused(meshdx('clusters', at(f)), at(f), 'nested deeper than 256 levels');
  });
  it('attribute with a history nested too deep', () => {
    const r = meshdx('attribute', at('access.log'), '--history', at('deep.json'));
    expectRefused(r, at('deep.json'), 'nested deeper than 256 levels');
  });
});

describe('huge or binary histories for attribute: refused before reading', () => {
  it('a 2 GiB history names its size and the limit', () => {
    const r = meshdx('attribute', at('access.log'), '--history', at('huge.json'));
    expectRefused(
      r,
      at('huge.json'),
      '2.0 GiB',
      'more than the 1.0 GiB',
      'MESHDX_MAX_HISTORY_BYTES',
    );
  });
  it('a history of NUL bytes is binary, and no NUL is printed', () => {
    const r = meshdx('attribute', at('access.log'), '--history', at('nul.json'));
    expectRefused(r, at('nul.json'), 'is binary data');
  });
  it('a history that is not UTF-8 is binary', () => {
    const r = meshdx('attribute', at('access.log'), '--history', at('not-utf8.json'));
    expectRefused(r, at('not-utf8.json'), 'is binary data');
  });
  it('the size limit is the environment`s when set', () => {
    const r = spawnSync(
      process.execPath,
      [BIN, 'attribute', at('access.log'), '--history', at('big-text.json')],
      {
        encoding: 'utf8',
        env: { ...process.env, MESHDX_MAX_HISTORY_BYTES: '1000' },
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${at('big-text.json')} is 17.6 KiB, more than the 1000 bytes`);
  });
  it('clusters --history is held to the same checks', () => {
    const dump = fixturePath('config_dump', 'eds_only_config_dump.json');
    const r = meshdx('clusters', dump, '--history', at('nul.json'));
    expectRefused(r, at('nul.json'), 'is binary data');
  });
  it('findings and timeline name a binary file as one', () => {
    expectRefused(meshdx('findings', at('nul.json')), at('nul.json'), 'binary data');
    expectRefused(meshdx('timeline', at('nul.json')), at('nul.json'), 'binary data');
    expectRefused(meshdx('findings', at('not-utf8.json')), at('not-utf8.json'), 'binary data');
  });
});

describe('empty options and arguments', () => {
  it("accesslog --format '' is refused, naming the option", () => {
    const r = meshdx('accesslog', at('access.log'), '--format', '');
    expectRefused(r, 'the argument after --format is empty');
  });
  it('a value of spaces is empty too', () => {
    const r = meshdx('attribute', at('access.log'), '--history', at('pod.yaml'), '--format', '  ');
    expectRefused(r, 'the argument after --format is empty');
  });
  it.each([['timeline'], ['clusters'], ['accesslog'], ['findings']])(
    "%s '' is not the current folder",
    (cmd) => {
      expectRefused(meshdx(cmd, ''), 'argument 1 is empty: a FILE cannot be empty');
    },
  );
  it("attribute --history '' and --gap-minutes ''", () => {
    expectRefused(
      meshdx('attribute', at('access.log'), '--history', ''),
      'after --history is empty',
    );
    const r = meshdx(
      'attribute',
      at('access.log'),
      '--history',
      at('pod.yaml'),
      '--gap-minutes',
      '',
    );
    expectRefused(r, 'after --gap-minutes is empty');
  });
  it('a valid run is still exit 0 (the checks refuse only bad input)', () => {
    const r = meshdx('accesslog', at('access.log'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('codes:   503=1');
  });
});
