import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One attribution (lib/ledger/attribution.ts): a request mapped to the pod that held its
 * upstream IP is one result type (Attribution), made by one module, in one state vocabulary,
 * with one reason text per case. The lint cannot see any of this; this test reads the sources.
 */
const root = path.resolve(import.meta.dirname, '../..');
const HOME = 'lib/ledger/attribution.ts';
/** The store keeps the state in its own words: translated in this module only. */
const STORED = 'lib/incidents/failure-store.ts';
/** Product code: what is checked (tests and the simulator, a program of its own, left out). */
const FOLDERS = ['lib', 'server', 'cli', 'app', 'components'];
const skipped = (rel: string) =>
  /\.test\.tsx?$/.test(rel) || rel.startsWith('server/sim/') || rel.includes('node_modules');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx)$/.test(entry.name) && !skipped(rel)) out.push(rel);
  }
  return out;
}

/** The fields only an attribution result has: who held the upstream IP, in what state, why. */
const ATTRIBUTION_FIELDS = ['upstreamIp', 'state', 'reason'];

/**
 * The exported interfaces and type literals of a source that declare every attribution field
 * themselves (a Pick of Attribution declares none: it is the one type, cut).
 */
export function attributionShapes(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const declares = (members: ts.NodeArray<ts.TypeElement>) => {
    const names = new Set(
      members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : [])),
    );
    return ATTRIBUTION_FIELDS.every((f) => names.has(f));
  };
  const literals = (node: ts.Node): boolean => {
    if (ts.isTypeLiteralNode(node) && declares(node.members)) return true;
    return ts.forEachChild(node, literals) ?? false;
  };
  for (const s of file.statements) {
    if (!ts.isInterfaceDeclaration(s) && !ts.isTypeAliasDeclaration(s)) continue;
    if ((ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export) === 0) continue;
    if (ts.isInterfaceDeclaration(s) ? declares(s.members) : literals(s.type))
      out.push(s.name.text);
  }
  return out;
}

/** Where a source reads a history for an attribution itself: a located row, an upstream's lookup. */
export function ownLookups(text: string): string[] {
  return [...text.matchAll(/\.locateRow\(|\blookupUpstream\b|\battributeFailure\b/g)].map(
    (m) => m[0],
  );
}

describe('one attribution', () => {
  it('finds an interface or a type literal with the attribution fields, not a Pick of it', () => {
    expect(
      attributionShapes(
        'x.ts',
        [
          'export interface A { upstreamIp: string; state: string; reason: string; pod: null }',
          'export type B = { upstreamIp: string; state: S; reason: string };',
          "export type C = Pick<Attribution, 'upstreamIp' | 'reason'> & { state: S };",
          'interface D { upstreamIp: string; state: string; reason: string }',
          'export interface E { state: string; reason: string }',
        ].join('\n'),
      ),
    ).toEqual(['A', 'B']);
    expect(ownLookups('t.locateRow(ip, t, g); lookupUpstream(r, h); at(ip)')).toEqual([
      '.locateRow(',
      'lookupUpstream',
    ]);
  });

  const files = FOLDERS.flatMap(sources);
  const text = new Map(files.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));

  it('has one result type: Attribution, declared in lib/ledger/attribution.ts', () => {
    const shapes = files
      .filter((f) => ATTRIBUTION_FIELDS.every((field) => text.get(f)?.includes(field)))
      .flatMap((f) => attributionShapes(f, text.get(f) ?? '').map((name) => `${f}: ${name}`));
    expect(shapes).toEqual([`${HOME}: Attribution`]);
  });

  it('has one lookup: no module but attribution.ts locates the holder of an upstream IP', () => {
    const own = files
      .filter((f) => f !== HOME && f !== 'lib/ledger/interval-table.ts')
      .flatMap((f) => ownLookups(text.get(f) ?? '').map((m) => `${f}: ${m}`));
    expect(own).toEqual([]);
    expect(ownLookups(text.get(HOME) ?? '')).toEqual(['.locateRow(']);
  });

  it("has one function: every attribution's caller goes through attribution.ts, none asks a history", () => {
    const callers = [
      'lib/incidents/collect.ts',
      'lib/incidents/live.ts',
      'lib/incidents/failure-record.ts',
      'lib/incidents/read-failures.ts',
      'server/otlp/ingest.ts',
      'lib/ledger/scan.ts',
      'cli/commands/attribute.ts',
      'lib/ledger/report-json.ts',
    ];
    const through = /\b(attributeRecord|failureOf|readHolder)\(/;
    // a history's lookup: `.at(ip, ...)`, not an array's `.at(-1)`
    const asks = /\.at\([A-Za-z_]/;
    expect(callers.filter((f) => !through.test(text.get(f) ?? ''))).toEqual([]);
    expect(callers.filter((f) => asks.test(text.get(f) ?? ''))).toEqual([]);
  });

  it('has one reason text for a request that never reached a pod', () => {
    const at = files.filter((f) => (text.get(f) ?? '').includes('never reached a pod'));
    expect(at).toEqual([HOME]);
  });

  it("keeps the store's words for the state in one module", () => {
    // the store's `gone` for the attribution's `terminated`, and its `unattributable`
    const at = files.filter((f) =>
      /'unattributable'|terminated: 'gone'|live: 'running'/.test(text.get(f) ?? ''),
    );
    expect(at).toEqual([STORED]);
  });

  it('has one default gap tolerance', () => {
    const at = files.filter((f) => /\b5 \* 60_000\b|\b300_000\b/.test(text.get(f) ?? ''));
    expect(at).toEqual(['lib/ledger/lookup.ts']);
  });
});
