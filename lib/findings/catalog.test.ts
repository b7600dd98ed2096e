import { describe, expect, it } from 'vitest';
import { defineCatalog, mergeCatalogs, withSharedEntries } from './catalog';
import { ISTIOCTL_CLAIMS } from './claims';
import { compareIstioMinors, inIstioRange, isIstioMinor, parseIstioRelease } from './istio-version';
import { ALL_CATALOG, catalogEntry } from './registry';
import { readFixture } from '../../test-support/fixtures';

const ANY = { since: '1.0', why: 'a test entry' } as const;

/** MDX ranges by domain, as lib/findings/types.ts documents them. */
const RANGES: Record<string, RegExp> = {
  platform: /^MDX00\d\d$/,
  timeline: /^MDX01\d\d$/,
  proxies: /^MDX02\d\d$/,
  scoping: /^MDX03\d\d$/,
  incidents: /^MDX04\d\d$/,
  protocol: /^MDX05\d\d$/,
  ambient: /^MDX06\d\d$/,
};

describe('one catalog of every code', () => {
  it('defines each code once, in the range of its domain', () => {
    const codes = ALL_CATALOG.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of ALL_CATALOG) {
      if (e.code.startsWith('MDX')) expect(e.code).toMatch(RANGES[e.domain] ?? /^$/);
      else expect(e.code).toMatch(/^IST\d{4}$/);
    }
  });

  it("uses istioctl's name and level for every IST code it reuses", () => {
    const yaml = readFixture('istio_config', 'ist_messages.yaml');
    for (const e of ALL_CATALOG.filter((x) => x.code.startsWith('IST'))) {
      const m = new RegExp(`name: "(\\w+)"\\n\\s+code: ${e.code}\\n\\s+level: (\\w+)`).exec(yaml);
      expect(m, e.code).not.toBeNull();
      expect(e.title).toBe(m?.[1]);
      expect(e.severity).toBe(m?.[2]?.toLowerCase());
    }
  });

  it('says for every code which Istio versions it applies to, as release lines that parse', () => {
    for (const e of ALL_CATALOG) {
      const { since, until, byDefault, why } = e.istio;
      expect(isIstioMinor(since), `${e.code} since ${since}`).toBe(true);
      expect(parseIstioRelease(since)?.minor, e.code).toBe(since);
      // no later than the newest release line meshdx knows (Istio 1.31)
      expect(compareIstioMinors(since, '1.31'), e.code).toBeLessThanOrEqual(0);
      if (until !== undefined) {
        expect(isIstioMinor(until), `${e.code} until ${until}`).toBe(true);
        expect(compareIstioMinors(until, since), e.code).toBeGreaterThan(0);
      }
      if (byDefault !== undefined) {
        expect(isIstioMinor(byDefault), `${e.code} byDefault ${byDefault}`).toBe(true);
        expect(inIstioRange(e.istio, byDefault), e.code).toBe(true);
        expect(compareIstioMinors(byDefault, since), e.code).toBeGreaterThan(0);
      }
      expect(why.length, `${e.code} says why`).toBeGreaterThan(20);
    }
  });

  it('never starts an IST code after the release whose istioctl first reports it', () => {
    // the release that added each code to istioctl's messages.yaml, where the entry names it
    for (const e of ALL_CATALOG.filter((x) => x.code.startsWith('IST'))) {
      const m = new RegExp(`istioctl analyze reports ${e.code} (?:only )?since (\\d+\\.\\d+)`).exec(
        e.istio.why,
      );
      if (m?.[1]) expect(compareIstioMinors(e.istio.since, m[1]), e.code).toBeLessThanOrEqual(0);
    }
  });

  it('explains every claimed istioctl code', () => {
    for (const c of ISTIOCTL_CLAIMS) expect(catalogEntry(c.code)?.code).toBe(c.code);
  });

  it('refuses a code defined by two domains', () => {
    const a = defineCatalog('platform', {
      x: { code: 'MDX0099', severity: 'info', title: 'A', description: 'a', istio: ANY },
    });
    const b = defineCatalog('scoping', {
      y: { code: 'MDX0099', severity: 'info', title: 'B', description: 'b', istio: ANY },
    });
    expect(() => mergeCatalogs(a.entries, b.entries)).toThrow(
      /MDX0099 is defined by platform and scoping/,
    );
    expect(mergeCatalogs(a.entries, a.entries)).toHaveLength(1);
  });

  it('shares an entry between catalogs as the one object, so a merge keeps its code once', () => {
    const base = defineCatalog('config', {
      missing: {
        code: 'IST0101',
        severity: 'error',
        title: 'ReferencedResourceNotFound',
        description: 'x',
        istio: ANY,
      },
    });
    const own = defineCatalog('config', {
      port: {
        code: 'IST0162',
        severity: 'warning',
        title: 'GatewayPortNotDefinedOnService',
        description: 'y',
        istio: ANY,
      },
    });
    const both = withSharedEntries(own, { missing: base.byKey.missing });
    expect(both.entries.map((e) => e.code)).toEqual(['IST0101', 'IST0162']);
    expect(both.code).toEqual({ port: 'IST0162', missing: 'IST0101' });
    expect(both.byKey.missing).toBe(base.byKey.missing);
    expect(mergeCatalogs(base.entries, both.entries).map((e) => e.code)).toEqual([
      'IST0101',
      'IST0162',
    ]);
  });
});
