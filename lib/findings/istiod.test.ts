import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import {
  istioApplicabilityText,
  istiodVersionsOf,
  istiodVersionText,
  istioVerdict,
  splitByIstiod,
  type IstiodVersions,
} from './istiod';
import { istiodOfScreened, judgeByIstiod } from './istiod-report';
import { manifestFindings } from './manifest';
import { catalogEntry } from './registry';
import type { Finding } from './types';

const NONE = 'no istiod among the objects';

function istiodPod(image: string, name = 'istiod-7f9c', labels: Record<string, string> = {}): Pod {
  return {
    kind: 'Pod',
    metadata: { name, namespace: 'istio-system', labels: { app: 'istiod', ...labels } },
    spec: { containers: [{ name: 'discovery', image }] },
  };
}

const known = (...minors: string[]): IstiodVersions => ({
  releases: minors.map((m) => ({
    minor: m,
    version: `${m}.0`,
    preRelease: false,
    revision: 'default',
    from: 'test',
  })),
  unknown: null,
});

const finding = (code: string, name = 'x'): Finding => ({
  code,
  severity: 'warning',
  subject: { kind: 'VirtualService', namespace: 'default', name },
  evidence: {},
});

describe("the cluster's istiod version", () => {
  it("reads istiod's image tag, per revision, newest first", () => {
    const v = istiodVersionsOf(
      [
        istiodPod('docker.io/istio/pilot:1.24.2'),
        istiodPod('docker.io/istio/pilot:1.24.2', 'istiod-2'),
        istiodPod('docker.io/istio/pilot:1.25.0-distroless', 'istiod-canary-1', {
          'istio.io/rev': 'canary',
        }),
      ],
      [],
      NONE,
    );
    expect(v.unknown).toBeNull();
    expect(v.releases.map((r) => [r.minor, r.version, r.revision])).toEqual([
      ['1.25', '1.25.0-distroless', 'canary'],
      ['1.24', '1.24.2', 'default'],
    ]);
    expect(v.releases[1]?.from).toBe(
      'Pod istio-system/istiod-7f9c image docker.io/istio/pilot:1.24.2',
    );
    expect(istiodVersionText(v)).toBe('1.25.0-distroless (canary), 1.24.2 (default)');
  });

  it('says a pre-release is judged as its line', () => {
    const v = istiodVersionsOf([istiodPod('gcr.io/istio-testing/pilot:1.27.0-beta.1')], [], NONE);
    expect(v.releases[0]).toMatchObject({ minor: '1.27', preRelease: true });
    expect(istiodVersionText(v)).toBe('1.27.0-beta.1 (pre-release, judged as 1.27)');
    const dev = istiodVersionsOf([istiodPod('localhost:5000/pilot:1.26-dev')], [], NONE);
    expect(dev.releases[0]).toMatchObject({ minor: '1.26', version: '1.26-dev' });
  });

  it('never guesses: no istiod, or an image that names no release, is unknown', () => {
    expect(istiodVersionsOf([], [], NONE)).toEqual({ releases: [], unknown: NONE });
    // not istiod: another pod running a pilot-like image without istiod's labels
    const other: Pod = {
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'discovery', image: 'pilot:1.24.2' }] },
    };
    expect(istiodVersionsOf([other], [], NONE).unknown).toBe(NONE);
    const digest = istiodVersionsOf([istiodPod('gcr.io/x/pilot@sha256:abc')], [], NONE);
    expect(digest.releases).toEqual([]);
    expect(digest.unknown).toBe(
      'Pod istio-system/istiod-7f9c runs gcr.io/x/pilot@sha256:abc: an image tag that names no Istio release',
    );
  });

  it("reads the Deployment of Istio's analyzer test: its image is tagged latest, so unknown", () => {
    const objects = parseAllDocuments(
      readFixture('istio_config', 'analyzer', 'blocked-cidrs-missing.yaml'),
    ).map((d) => d.toJS() as unknown);
    const { screened } = manifestFindings(objects);
    expect(istiodOfScreened(screened, NONE)).toEqual({
      releases: [],
      unknown:
        'Deployment istio-system/istiod runs registry.istio.io/testing/pilot:latest: an image tag that names no Istio release',
    });
  });

  it('reads a Deployment pod template with a release', () => {
    const objects = [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'istiod', namespace: 'istio-system' },
        spec: {
          template: {
            metadata: { labels: { app: 'istiod', 'istio.io/rev': 'default' } },
            spec: { containers: [{ name: 'discovery', image: 'docker.io/istio/pilot:1.26.4' }] },
          },
        },
      },
    ];
    const v = istiodOfScreened(manifestFindings(objects).screened, NONE);
    expect(v.releases.map((r) => [r.minor, r.from])).toEqual([
      ['1.26', 'Deployment istio-system/istiod image docker.io/istio/pilot:1.26.4'],
    ]);
  });
});

describe('each finding judged against it', () => {
  it('applies inside the range, not outside, unknown without a version', () => {
    const r = { since: '1.24' };
    expect(istioVerdict(r, known('1.24'))).toBe('applies');
    expect(istioVerdict(r, known('1.23'))).toBe('not-applicable');
    expect(istioVerdict({ since: '1.4', until: '1.22' }, known('1.22'))).toBe('not-applicable');
    expect(istioVerdict(r, { releases: [], unknown: NONE })).toBe('unknown');
    // a canary upgrade: for the cluster when for either istiod
    expect(istioVerdict(r, known('1.23', '1.24'))).toBe('applies');
    // one istiod known and out of range, another unknown: not judged
    expect(istioVerdict(r, { ...known('1.23'), unknown: 'one runs a digest' })).toBe('unknown');
  });

  it('says it in words', () => {
    expect(istioApplicabilityText({ since: '1.24' }, known('1.24'))).toBe(
      'Istio ≥1.24: applies to istiod 1.24.0',
    );
    expect(istioApplicabilityText({ since: '1.28' }, known('1.24'))).toBe(
      'Istio ≥1.28: not for istiod 1.24.0',
    );
    expect(istioApplicabilityText({ since: '1.0' }, undefined)).toBe(
      'any Istio: istiod version unknown',
    );
  });

  it('lists the findings of codes not for this istiod apart, with the real catalog', () => {
    // IST0165's ~-delimited internal gateway names are istiod's from 1.28; IST0101 is any Istio's
    expect(catalogEntry('IST0165')?.istio.since).toBe('1.28');
    const findings = [finding('IST0165', 'a'), finding('IST0101', 'b'), finding('IST0165', 'c')];
    const on124 = judgeByIstiod(findings, known('1.24'));
    expect(on124.findings.map((f) => f.subject.name)).toEqual(['b']);
    expect(on124.istiod.notApplicable.map((f) => f.subject.name)).toEqual(['a', 'c']);
    expect(judgeByIstiod(findings, known('1.28')).findings).toHaveLength(3);
    // unknown: every finding stays
    const unknown = judgeByIstiod(findings, { releases: [], unknown: NONE });
    expect([unknown.findings.length, unknown.istiod.notApplicable.length]).toEqual([3, 0]);
    // a code without a catalog entry stays
    expect(splitByIstiod([finding('MDX9999')], known('1.0'), () => undefined).kept).toHaveLength(1);
  });
});
