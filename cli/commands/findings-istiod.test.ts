import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { runWith, type ReadStdin } from './findings';
import { EXIT_USAGE } from '../io';

const dir = tempDir('findings-istiod');
const io = () => fakeIO(dir);
const analyzer = (f: string) => fixturePath('istio_config', 'analyzer', f);
const noStdin: ReadStdin = () => Promise.reject(new Error('stdin not expected'));

interface Out {
  findings: { code: string; istio: { versions: string; since: string; verdict: string } | null }[];
  istiod: {
    releases: { minor: string; version: string; from: string }[];
    unknown: string | null;
    notApplicable: { code: string; istio: { verdict: string } | null }[];
  };
  summary: { findings: number; notForIstiod: number };
}

const json = async (...argv: string[]): Promise<Out> => {
  const t = io();
  await runWith([...argv, '--json'], t, noStdin);
  return JSON.parse(t.out) as Out;
};

describe('meshdx findings judged against an istiod version', () => {
  // Istio's IST0165 test input: the ~-delimited internal names are istiod's from 1.28
  const internalRef = analyzer('virtualservice_internal_gateway_ref.yaml');

  it('lists a code not for --istiod-version apart, in no count', async () => {
    const out = await json(internalRef, '--istiod-version', '1.24.2');
    expect(out.istiod.releases).toEqual([
      {
        minor: '1.24',
        version: '1.24.2',
        preRelease: false,
        revision: 'default',
        from: '--istiod-version 1.24.2',
      },
    ]);
    expect(out.findings.map((f) => f.code)).not.toContain('IST0165');
    expect(out.istiod.notApplicable.map((f) => [f.code, f.istio?.verdict])).toEqual([
      ['IST0165', 'not-applicable'],
    ]);
    expect(out.summary.notForIstiod).toBe(1);
    expect(out.summary.findings).toBe(out.findings.length);
  });

  it('keeps it, saying it applies, for an istiod of its versions (a pre-release too)', async () => {
    for (const v of ['1.28.1', '1.29.0-beta.1']) {
      const out = await json(internalRef, `--istiod-version=${v}`);
      const f = out.findings.find((x) => x.code === 'IST0165');
      expect([v, f?.istio]).toEqual([
        v,
        { versions: 'Istio ≥1.28', since: '1.28', verdict: 'applies' },
      ]);
      expect(out.istiod.notApplicable).toEqual([]);
    }
  });

  it('judges nothing when the files hold no istiod: unknown, never guessed', async () => {
    const out = await json(internalRef);
    expect(out.istiod.releases).toEqual([]);
    expect(out.istiod.unknown).toContain('no istiod Pod or Deployment among the objects given');
    expect(out.findings.find((f) => f.code === 'IST0165')?.istio?.verdict).toBe('unknown');
  });

  it("reads the istiod Deployment among the files: Istio's test one is tagged latest", async () => {
    const out = await json(analyzer('blocked-cidrs-missing.yaml'));
    expect(out.istiod.unknown).toBe(
      'Deployment istio-system/istiod runs registry.istio.io/testing/pilot:latest: an image tag that names no Istio release',
    );
    // IST0175 (BLOCKED_CIDRS_IN_JWKS_URIS is 1.29's) is kept: the version is unknown
    expect(out.findings.find((f) => f.code === 'IST0175')?.istio?.verdict).toBe('unknown');
  });

  it('says the istiod in the text output, and the findings not for it', async () => {
    const t = io();
    await runWith(
      [analyzer('gateway-api-crd-version-old.yaml'), '--istiod-version', '1.30.2'],
      t,
      noStdin,
    );
    expect(t.out).toContain('judged against istiod 1.30.2 (--istiod-version 1.30.2)\n');
    expect(t.out).toMatch(/\d+ findings? not for this istiod, in no count:\n {2}IST0176 /);
    expect(t.out).toContain('(Istio ≥1.31)');
    const unknown = io();
    await runWith([analyzer('gateway-api-crd-version-old.yaml')], unknown, noStdin);
    expect(unknown.out).toContain('istiod version unknown: no istiod Pod or Deployment');
  });

  it('refuses a --istiod-version that is no version', async () => {
    const t = io();
    expect(await runWith([internalRef, '--istiod-version', 'latest'], t, noStdin)).toBe(EXIT_USAGE);
    expect(t.err).toContain('--istiod-version needs an Istio version');
  });

  it('SARIF: rules carry their versions, a finding not for istiod is a suppressed result', async () => {
    const t = io();
    await runWith([internalRef, '--format', 'sarif', '--istiod-version', '1.24'], t, noStdin);
    const run = (
      JSON.parse(t.out) as {
        runs: {
          properties?: { istiod: string };
          tool: { driver: { rules: { id: string; properties?: { istioVersions: string } }[] } };
          results: {
            ruleId: string;
            suppressions?: { kind: string; justification: string }[];
            properties?: { istioVerdict: string };
          }[];
        }[];
      }
    ).runs[0];
    expect(run?.properties).toEqual({ istiod: '1.24' });
    const rule = run?.tool.driver.rules.find((r) => r.id === 'IST0165');
    expect(rule?.properties?.istioVersions).toBe('Istio ≥1.28');
    const result = run?.results.find((r) => r.ruleId === 'IST0165');
    expect(result?.suppressions).toEqual([
      { kind: 'external', justification: 'not for istiod 1.24 (Istio ≥1.28)' },
    ]);
    expect(result?.properties).toEqual({ istioVerdict: 'not-applicable' });
  });
});
