import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { parseManifestText } from './input';
import { manifestFindings } from './manifest';
import { artifactUri, objectLocator, parseOrigin, toSarif } from './sarif';

describe('SARIF from findings', () => {
  it('reads the origins the manifest reader records', () => {
    expect(parseOrigin('a/b.yaml:12')).toEqual({ file: 'a/b.yaml', line: 12 });
    expect(parseOrigin('list.yaml:3 items[4]')).toEqual({ file: 'list.yaml', line: 3 });
    expect(parseOrigin('x.json:1[2]')).toEqual({ file: 'x.json', line: 1 });
    expect(parseOrigin('c:\\dir\\f.yaml:7')).toEqual({ file: 'c:\\dir\\f.yaml', line: 7 });
    expect(parseOrigin('no line')).toBeNull();
  });

  it('writes file paths as relative URIs', () => {
    expect(artifactUri('dir\\my file.yaml')).toBe('dir/my%20file.yaml');
  });

  it("makes a rule per code and a located result per finding of istioctl's input", () => {
    const read = parseManifestText(
      readFixture('istio_config', 'analyzer', 'virtualservice_destinationrules.yaml'),
      'vs.yaml',
    );
    const { findings } = manifestFindings(read.objects.map((o) => o.object));
    const origin = new Map(
      read.objects.map((o) => {
        const m = (o.object as { metadata: { name: string } }).metadata;
        return [m.name, parseOrigin(o.origin) ?? undefined];
      }),
    );
    const log = toSarif({ findings, locate: (f) => origin.get(f.subject.name), version: '1' });
    const run = log.runs[0];
    expect(run?.tool.driver.rules?.map((r) => r.id)).toEqual(
      [...new Set(findings.map((f) => f.code))].sort(),
    );
    expect(run?.results).toHaveLength(findings.length);
    const bogus = run?.results?.find((r) =>
      r.message.text?.startsWith('VirtualService default/reviews-bogussubset'),
    );
    expect(bogus?.level).toBe('error');
    expect(bogus?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('vs.yaml');
    expect(bogus?.locations?.[0]?.physicalLocation?.region?.startLine).toBeGreaterThan(1);
  });

  it('locates an object by kind, namespace and name; a namespace-less one under default too', () => {
    const locate = objectLocator(
      [
        { kind: 'Sidecar', metadata: { name: 'a', namespace: 'shop' } },
        { kind: 'Sidecar', metadata: { name: 'b' } },
        { kind: 'Sidecar', metadata: { name: 'a', namespace: 'shop' } },
        'not an object',
      ],
      ['s.yaml:3', 's.yaml:9', 'dup.yaml:1', 's.yaml:20'],
    );
    expect(locate({ kind: 'Sidecar', namespace: 'shop', name: 'a' })).toEqual({
      file: 's.yaml',
      line: 3,
    });
    expect(locate({ kind: 'Sidecar', namespace: 'default', name: 'b' })?.line).toBe(9);
    expect(locate({ kind: 'Sidecar', namespace: null, name: 'b' })?.line).toBe(9);
    expect(locate({ kind: 'Gateway', namespace: 'shop', name: 'a' })).toBeUndefined();
  });
});
