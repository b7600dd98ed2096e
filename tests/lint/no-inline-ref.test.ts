import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a plain ESM ESLint plugin without types
import meshdxRefs from '../../scripts/eslint/no-inline-ref.mjs';

function lint(code: string, options: { paths?: boolean }[] = []): string[] {
  return new Linter()
    .verify(
      code,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { 'meshdx-refs': meshdxRefs },
          rules: { 'meshdx-refs/no-inline-ref': ['error', ...options] },
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

  it('reports service hosts built inline', () => {
    for (const code of [
      'const h = `${name}.${namespace}.svc.${domain}`;',
      'const h = `${s.metadata.name}.${ns}.svc.cluster.local`;',
      'const h = `${h}.svc.${domain}`;',
      'const a = `istiod.${istioNamespace}.svc:15012`;',
      "const h = name + '.' + ns + '.svc.' + domain;",
      "const h = `${name}.${ns}` + '.svc.cluster.local';",
      "const h = [name, ns, 'svc', 'cluster.local'].join('.');",
    ]) {
      expect(lint(code), code).toEqual([expect.stringMatching(/^Inline service host/)]);
    }
  });

  it('reports Istio cluster names built inline', () => {
    for (const code of [
      'const c = `outbound|${port.port}||${svc.hostname}`;',
      'const c = `outbound|${port.port}|${subset.name}|${svc.hostname}`;',
      'const c = `inbound|${target}||`;',
      "const c = `inbound|${p.port}|${p.name ?? ''}|${fqdn}`;",
      'const c = `inbound-vip|${port}|http|${host}`;',
      "const c = 'outbound|' + port + '||' + host;",
      "const c = ['outbound', String(port), subset, host].join('|');",
    ]) {
      expect(lint(code), code).toEqual([expect.stringMatching(/^Inline Istio cluster name/)]);
    }
  });

  it('reports finding subject keys built inline', () => {
    for (const code of [
      "const k = `${kind}|${namespace ?? ''}|${name}`;",
      "const k = `${f.code}|${s.kind}|${s.namespace ?? ''}|${s.name}|${part}`;",
      'const k = `${f.code}|${f.subject.kind}|${f.subject.name}`;',
      "const k = o.kind + '|' + (o.metadata.namespace ?? '') + '|' + o.metadata.name;",
      "const k = [s.kind, s.namespace ?? '', s.name].join('|');",
      'const k = `${r.ownerKind}|${r.ownerNamespace}|${r.ownerName}`;',
    ]) {
      expect(lint(code), code).toEqual([expect.stringMatching(/^Inline subject key/)]);
    }
  });

  it('leaves literal wire text, other `|` keys and other `.svc` words alone', () => {
    for (const code of [
      "const c = 'outbound|9080||reviews.default.svc.cluster.local';",
      'const c = `outbound|9080||reviews.default.svc.cluster.local`;',
      "const h = 'reviews.default.svc.cluster.local';",
      'const p = `kubectl -n meshdx port-forward svc/meshdx ${port}:80`;',
      'const h = `${name}.${ns}.svcs`;',
      'const k = `${m.kind}|${m.pod}`;',
      'const k = `${kind}|${name}`;',
      "const k = `${state.namespace ?? ''}|${state.code ?? ''}|${state.severity ?? ''}`;",
      "const k = `${f.code}|${f.subject.namespace ?? ''}|${f.subject.name}`;",
      "const k = `${r.source}|${r.time}|${r.upstream}|${r.code}|${r.flags.join(',')}`;",
      "const k = [e.involvedUid, e.reason, e.fieldPath, e.count].join('|');",
      "const r = new RegExp(['outbound', 'inbound'].join('|'));",
      "const r = new RegExp(names.join('|'));",
      'const s = a + b + c;',
      'const h = formatClusterName({ direction: "outbound", port, fqdn });',
      'const h = serviceFqdn(name, ns, domain);',
      'const k = subjectKey(kind, ns, name);',
    ]) {
      expect(lint(code), code).toEqual([]);
    }
  });

  it('checks only the `ns/name` keys where the wire formats are printed by hand (paths)', () => {
    for (const code of [
      'const h = `${name}.${namespace}.svc.${domain}`;',
      'const c = `outbound|${port.port}||${svc.hostname}`;',
      "const k = `${kind}|${namespace ?? ''}|${name}`;",
    ]) {
      expect(lint(code, [{ paths: true }]), code).toEqual([]);
    }
    expect(lint('const k = `${ns}/${name}`;', [{ paths: true }])).toEqual([
      expect.stringMatching(/^Inline reference key/),
    ]);
  });
});
