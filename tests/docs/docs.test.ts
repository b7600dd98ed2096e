import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README stays a five-minute read, docs/DESIGN.md names every folder of the checkout, every
 * relative link of the docs resolves, and every environment variable the code reads has one row
 * in the settings table of docs/operating.md.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const read = (rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');

const docPages = (): string[] => [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Files of the checkout that git tracks or would track (ignored ones left out), that exist. */
function checkoutFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
  return out.split('\0').filter((f) => f !== '' && fs.existsSync(path.join(root, f)));
}

/** Every top-level folder and every folder directly inside one, as `name/` and `name/sub/`. */
function foldersToName(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    if (parts.length > 1) folders.add(`${parts[0]}/`);
    if (parts.length > 2) folders.add(`${parts[0]}/${parts[1]}/`);
  }
  return [...folders].sort();
}

/** The folders the layout table of DESIGN.md names: the first cell of each row, in backticks. */
function layoutFolders(design: string): string[] {
  const section = design.split(/^## /m).find((s) => s.startsWith('Layout\n'));
  if (section === undefined) throw new Error('docs/DESIGN.md has no "## Layout" section');
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([^`]+\/)`\s*\|/.exec(line);
    if (m?.[1] !== undefined) names.push(m[1]);
  }
  return names;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Inline links and images outside code: [text](target) and ![alt](target). */
function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

describe('README', () => {
  const readme = read('README.md');
  const lines = readme.replace(/\n$/, '').split('\n');

  it('is at most 150 lines of at most 100 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(150);
    expect(lines.filter((l) => l.length > 100)).toEqual([]);
  });

  it('keeps the two commands and the three screenshots', () => {
    expect(readme).toContain('npm install && npm run demo');
    expect(readme).toContain('npm install && npm test');
    for (const png of ['docs/overview.png', 'docs/proxies.png', 'docs/timelines.png'])
      expect(readme).toContain(`](${png})`);
  });

  it('links every page of docs/', () => {
    const linked = new Set(linksOf(readme).map((l) => l.split('#')[0]));
    const pages = docPages().filter((p) => p !== 'README.md');
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});

describe('docs/DESIGN.md', () => {
  const named = layoutFolders(read('docs/DESIGN.md'));

  it('names every top-level folder and every folder one level below', () => {
    const missing = foldersToName(checkoutFiles()).filter((f) => !named.includes(f));
    expect(missing, 'add a row with the folder and its job to the Layout table').toEqual([]);
  });

  it('names no folder that does not exist', () => {
    const gone = named.filter((f) => !fs.statSync(path.join(root, f), { throwIfNoEntry: false }));
    expect(gone).toEqual([]);
  });

  it('reads folders the way the checkout has them', () => {
    expect(foldersToName(['a.ts', 'lib/x.ts', 'lib/ledger/y.ts', 'lib/ledger/z/w.ts'])).toEqual([
      'lib/',
      'lib/ledger/',
    ]);
    expect(
      layoutFolders('## Layout\n\n| folder | job |\n| `lib/` | pure |\n\n## Next\n| `x/` |'),
    ).toEqual(['lib/']);
  });
});

describe('links', () => {
  it('finds links and anchors as GitHub does', () => {
    expect(linksOf('[a](b.md) `[c](d.md)` ![e](f.png)\n```\n[g](h.md)\n```\n')).toEqual([
      'b.md',
      'f.png',
    ]);
    expect(anchorOf("What meshdx's ServiceAccount can reach")).toBe(
      'what-meshdxs-serviceaccount-can-reach',
    );
    expect(anchorOf('The fleet from Prometheus (or Thanos)')).toBe(
      'the-fleet-from-prometheus-or-thanos',
    );
  });

  for (const page of docPages()) {
    it(`every relative link of ${page} resolves`, () => {
      const broken: string[] = [];
      for (const link of linksOf(read(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
        const [file = '', anchor] = link.split('#', 2);
        const target = file === '' ? page : path.posix.join(path.posix.dirname(page), file);
        if (!fs.existsSync(path.join(root, target))) {
          broken.push(`${link}: no file ${target}`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor))
          broken.push(`${link}: no heading #${anchor} in ${target}`);
      }
      expect(broken).toEqual([]);
    });
  }
});

/**
 * Paths of the checkout the docs name in code spans (`lib/kube/trim.ts`, `server/store`): the
 * ones under a top-level folder, without placeholders (`<context>`, `*`, `NAME`).
 */
function pathsNamed(markdown: string, topLevel: ReadonlySet<string>): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const out: string[] = [];
  for (const m of prose.matchAll(/`([^`\s]+)`/g)) {
    const p = (m[1] ?? '').replace(/[:,.]$/, '');
    const first = p.split('/')[0] ?? '';
    if (!p.includes('/') || !topLevel.has(`${first}/`)) continue;
    if (/[<>*?=]/.test(p) || p.split('/').some((seg) => /^[A-Z][A-Z_]*$/.test(seg))) continue;
    out.push(p);
  }
  return out;
}

describe('paths', () => {
  const topLevel = new Set(foldersToName(checkoutFiles()).filter((f) => f.split('/').length === 2));
  for (const page of docPages()) {
    it(`every path of the checkout that ${page} names exists`, () => {
      const gone = pathsNamed(read(page), topLevel).filter(
        (p) => !fs.existsSync(path.join(root, p)),
      );
      expect(gone).toEqual([]);
    });
  }
});

/** Names of environment variables the code reads, from its sources (tests excepted). */
function envVarsRead(files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const f of files) {
    const source = /\.(ts|tsx|mts|mjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f);
    if (!source && f !== 'Dockerfile') continue;
    const text = read(f);
    for (const m of text.matchAll(/\bMESHDX_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
    if (source) for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1] ?? '');
    else
      for (const line of text
        .replace(/\\\n/g, ' ')
        .split('\n')
        .filter((l) => l.startsWith('ENV ')))
        for (const m of line.matchAll(/\b([A-Z][A-Z0-9_]*)=/g)) names.add(m[1] ?? '');
  }
  // the platform's own, not meshdx settings
  for (const n of ['', 'PATH', 'NODE_ENV', 'NEXT_RUNTIME', 'NEXT_TELEMETRY_DISABLED'])
    names.delete(n);
  return names;
}

describe('settings', () => {
  it('every environment variable the code reads has exactly one row, in docs/operating.md', () => {
    const rows = new Map<string, string[]>();
    for (const page of docPages())
      for (const line of read(page).split('\n')) {
        const m = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line);
        if (m?.[1] !== undefined) rows.set(m[1], [...(rows.get(m[1]) ?? []), page]);
      }
    const problems: string[] = [];
    const used = envVarsRead(checkoutFiles());
    for (const name of rows.keys())
      if (!used.has(name)) problems.push(`${name}: has a row but no code reads it`);
    for (const name of [...used].sort()) {
      const where = rows.get(name) ?? [];
      if (where.length !== 1 || where[0] !== 'docs/operating.md')
        problems.push(`${name}: rows in [${where.join(', ')}]`);
    }
    expect(problems, 'one row per variable in the Settings table of docs/operating.md').toEqual([]);
  });
});
