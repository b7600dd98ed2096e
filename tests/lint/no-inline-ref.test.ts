import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import meshdxRefs from '../../scripts/eslint/no-inline-ref.mjs';

function lint(code: string): string[] {
  return new Linter()
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { 'meshdx-refs': meshdxRefs },
          rules: { 'meshdx-refs/no-inline-ref': 'error' },
        },
      ],
      'x.ts',
    )
    .map((m) => m.message);
}

describe('meshdx-refs/no-inline-ref', () => {
  it('reports references assembled inline from a namespace', () => {
    for (const code of [
      'const k = `${ns}/${name}`;',
      'const k = `${namespace}/${kind}/${name}`;',
      'const k = `${p.metadata.namespace ?? ""}/${p.metadata.name}`;',
      'const k = p.uid ?? `${p.namespace}/${p.name}`;',
      'const k = `pod ${podNamespace}/${pod} is gone`;',
      'const k = `# ${w.kind} ${w.namespace!}/${w.name}`;',
      'const k = `${nsOf(s)}/${s.metadata.name}`;',
      'const u = `/api/proxies/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;',
      'const h = `${istioNamespace}/*`;',
      'const k = `${m.metric?.namespace}/${m.metric?.pod}`;',
      'const w = `${t.workload.kind}/${t.workload.name}`;',
      'const w = `${r.workloadKind}/${r.workload}`;',
    ]) {
      expect(lint(code), code).toEqual([expect.stringMatching(/^Inline reference key/)]);
    }
  });

  it('leaves other joins with "/" alone', () => {
    for (const code of [
      'const p = `${root}/${rt.plural}`;',
      'const p = `${dir}/${file}`;',
      'const r = `${base}.${group}/${sub}`;',
      'const p = `${sp.port}/${protocol}`;',
      'const k = `${ns}|${name}`;',
      'const t = `${namespace}`;',
      'const t = `in ${namespace}/`;',
      'const k = podKey(ns, name);',
      'const p = `${c.name}/${kind}`;',
      'const u = `/api/v1/namespaces/${ns}/pods/${name}/log`;',
    ]) {
      expect(lint(code), code).toEqual([]);
    }
  });
});
