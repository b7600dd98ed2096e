import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import {
  compareIstioMinors,
  imageRefName,
  imageRefTag,
  inIstioRange,
  isIstioMinor,
  istioRangeText,
  istioReleaseOfImage,
  parseIstioRelease,
} from './istio-version';

describe('Istio versions read to their release line', () => {
  it('reads releases, patches and variants', () => {
    expect(parseIstioRelease('1.24.2')).toEqual({
      minor: '1.24',
      version: '1.24.2',
      preRelease: false,
    });
    expect(parseIstioRelease('1.22.1-distroless')).toEqual({
      minor: '1.22',
      version: '1.22.1-distroless',
      preRelease: false,
    });
    expect(parseIstioRelease('v1.25.0')?.version).toBe('1.25.0');
    expect(parseIstioRelease('1.31')?.minor).toBe('1.31');
    // a vendor's build of 1.21 (ISTIO_VERSION of istioctl's proxy-config test dump)
    expect(parseIstioRelease('1.21.0-1226')).toMatchObject({ minor: '1.21', preRelease: false });
  });

  it('judges a pre-release as its line, and says it is one', () => {
    expect(parseIstioRelease('1.27.0-beta.1')).toEqual({
      minor: '1.27',
      version: '1.27.0-beta.1',
      preRelease: true,
    });
    expect(parseIstioRelease('1.26-dev')).toMatchObject({ minor: '1.26', preRelease: true });
    expect(parseIstioRelease('1.31.0-rc.0')).toMatchObject({ minor: '1.31', preRelease: true });
    expect(parseIstioRelease('1.26-alpha.9c8f2e7a1b')).toMatchObject({
      minor: '1.26',
      preRelease: true,
    });
    expect(parseIstioRelease('1.3.0-prerelease')?.preRelease).toBe(true);
  });

  it('names no release for what is no version', () => {
    for (const v of ['latest', '', 'master', '9c8f2e7a1b3d', '1', 'one.two', '1.x.3'])
      expect(parseIstioRelease(v), v).toBeNull();
  });

  it('reads image references: registry ports, digests, no tag', () => {
    expect(imageRefTag('registry:5000/istio/pilot:1.24.2@sha256:abc')).toBe('1.24.2');
    expect(imageRefTag('registry:5000/istio/pilot')).toBeNull();
    expect(imageRefTag('gcr.io/x/pilot@sha256:abc')).toBeNull();
    expect(imageRefName('registry:5000/istio/pilot:1.24.2')).toBe('pilot');
    expect(imageRefName('pilot@sha256:abc')).toBe('pilot');
    expect(istioReleaseOfImage('docker.io/istio/pilot:1.31.0-distroless')?.minor).toBe('1.31');
    expect(istioReleaseOfImage('registry.istio.io/testing/pilot:latest')).toBeNull();
  });

  it('reads the real images and ISTIO_VERSIONs of the fixtures', () => {
    const images = (text: string) => [
      ...new Set([...text.matchAll(/image: *"?([^\s"]+proxyv2[^\s"]*)/g)].map((m) => m[1])),
    ];
    // the injected pods of Istio's injector tests run a build tagged latest: no release
    expect(images(readFixture('pods', 'injected_native-sidecar.yaml'))).toEqual([
      'registry.istio.io/testing/proxyv2:latest',
    ]);
    expect(istioReleaseOfImage('registry.istio.io/testing/proxyv2:latest')).toBeNull();
    const read = (file: string) =>
      images(readFixture('istio_config', 'analyzer', file)).map((i) => {
        const r = istioReleaseOfImage(i ?? '');
        return [imageRefTag(i ?? ''), r?.minor, r?.preRelease];
      });
    expect(read('injection-image-distroless.yaml')).toEqual([
      ['1.3.0', '1.3', false],
      ['1.3.1', '1.3', false],
      ['1.3.1-distroless', '1.3', false],
    ]);
    expect(read('injection.yaml')).toContainEqual(['1.3.0-rc.2', '1.3', true]);
    expect(read('injection-with-mismatched-sidecar.yaml')).toContainEqual([
      '1.3.0-prerelease',
      '1.3',
      true,
    ]);
    const echo = readFixture('config_dump', 'istio-echo-a_sidecar_config_dump.json');
    const v = /"ISTIO_VERSION": "([^"]+)"/.exec(echo)?.[1] ?? '';
    expect(parseIstioRelease(v)).toEqual({ minor: '1.0', version: '1.0-dev', preRelease: true });
  });

  it('compares release lines numerically, not as text', () => {
    expect(compareIstioMinors('1.9', '1.10')).toBeLessThan(0);
    expect(compareIstioMinors('1.24', '1.24')).toBe(0);
    expect(compareIstioMinors('2.0', '1.31')).toBeGreaterThan(0);
    expect(isIstioMinor('1.24')).toBe(true);
    expect(isIstioMinor('1.24.0')).toBe(false);
  });

  it('takes since in and until out', () => {
    const r = { since: '1.19', until: '1.30' } as const;
    expect(inIstioRange(r, '1.18')).toBe(false);
    expect(inIstioRange(r, '1.19')).toBe(true);
    expect(inIstioRange(r, '1.29')).toBe(true);
    expect(inIstioRange(r, '1.30')).toBe(false);
    expect(inIstioRange({ since: '1.24' }, '1.100')).toBe(true);
  });

  it('says the range in a few words', () => {
    expect(istioRangeText({ since: '1.24' })).toBe('Istio ≥1.24');
    expect(istioRangeText({ since: '1.0' })).toBe('any Istio');
    expect(istioRangeText({ since: '1.19', byDefault: '1.27' })).toBe(
      'Istio ≥1.19 (default from 1.27)',
    );
    expect(istioRangeText({ since: '1.4', until: '1.22' })).toBe('Istio ≥1.4, before 1.22');
  });
});
