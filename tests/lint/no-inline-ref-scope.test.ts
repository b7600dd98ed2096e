import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
// only this rule: the import-graph rules read the probe's path from disk, where it is not
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'meshdx-refs/no-inline-ref',
});

/** The message ids the project's config reports for `code` as if it were `file`. */
async function reported(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => m.messageId ?? m.message);
}

const FORMATS = [
  'export const host = (name: string, ns: string) => `${name}.${ns}.svc.cluster.local`;',
  'export const cluster = (port: number, host: string) => `outbound|${port}||${host}`;',
  "export const subject = (kind: string, ns: string, name: string) => `${kind}|${ns ?? ''}|${name}`;",
  'export const pod = (ns: string, name: string) => `${ns}/${name}`;',
].join('\n');

describe('where meshdx-refs/no-inline-ref applies (eslint.config.mjs)', () => {
  it('reports every format in the product', async () => {
    for (const file of [
      'lib/scoping/probe.ts',
      'lib/findings/probe.ts',
      'server/screens/incidents/probe.ts',
      'cli/commands/probe.ts',
      'components/findings/probe.tsx',
      'app/api/probe/route.ts',
    ]) {
      expect(await reported(file, FORMATS), file).toEqual([
        'serviceHost',
        'clusterName',
        'subjectKey',
        'inline',
      ]);
    }
  });

  it('leaves lib/refs, which writes them, alone', async () => {
    expect(await reported('lib/refs/probe.ts', FORMATS)).toEqual([]);
    expect(await reported('lib/refs/probe.test.ts', FORMATS)).toEqual([]);
  });

  it('checks only `ns/name` keys in the simulator and in tests, which print the wire formats', async () => {
    for (const file of [
      'server/sim/mesh/probe.ts',
      'lib/scoping/probe.test.ts',
      'tests/scoping/probe.ts',
      'bench/probe.bench.ts',
      'test-support/probe.ts',
    ]) {
      expect(await reported(file, FORMATS), file).toEqual(['inline']);
    }
  });
});
