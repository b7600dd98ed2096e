import { describe, expect, it } from 'vitest';
import type { Finding } from '../findings/types';
import { compareWithAnalyze, parseAnalyzeOutput } from './analyze';

// istioctl analyze's log format (istioctl/pkg/util/formatting: `Level [CODE] (Resource) text`,
// the resource `Kind namespace/name`) as istio.io's docs print it, and the older
// `Kind name.namespace` of istioctl before 1.5
const OUTPUT = [
  'Error [IST0101] (VirtualService default/reviews) Referenced host not found: "reviews2"',
  "Warning [IST0118] (Service default/details) Port name foo (port: 9080, targetPort: 9080) doesn't follow the naming convention of Istio port.",
  'Warning [IST0103] (Pod bookinfo/ratings-v1-7dc98c7588-8x2wz) The pod is missing the Istio proxy.',
  "Info [IST0102] (Namespace frod) The namespace is not enabled for Istio injection. Run 'kubectl label namespace frod istio-injection=enabled' to enable it, or 'kubectl label namespace frod istio-injection=disabled' to explicitly mark it as not needing injection.",
  'Warning [IST0118] (Service productpage.legacy) Port name http-web (port: 9080) ...',
  '✔ No validation issues found when analyzing namespace: other.',
  'garbage line',
].join('\n');

const finding = (
  code: string,
  kind: string,
  namespace: string,
  name: string,
  evidence: Finding['evidence'] = {},
): Finding => ({
  code,
  severity: 'warning',
  subject: { kind, namespace, name },
  evidence,
});

describe("the archive's istioctl analyze output beside meshdx's findings", () => {
  it('reads every message form and names a line it cannot read', () => {
    const r = parseAnalyzeOutput(OUTPUT);
    expect(r.messages.map((m) => [m.level, m.code, m.kind, m.namespace, m.name])).toEqual([
      ['Error', 'IST0101', 'VirtualService', 'default', 'reviews'],
      ['Warning', 'IST0118', 'Service', 'default', 'details'],
      ['Warning', 'IST0103', 'Pod', 'bookinfo', 'ratings-v1-7dc98c7588-8x2wz'],
      ['Info', 'IST0102', 'Namespace', null, 'frod'],
      ['Warning', 'IST0118', 'Service', 'legacy', 'productpage'],
    ]);
    expect(r.problems).toEqual([expect.objectContaining({ line: 7, excerpt: 'garbage line' })]);
  });

  it('says which messages both agree on, which only istioctl gave, which only meshdx found', () => {
    const { messages } = parseAnalyzeOutput(OUTPUT);
    const ours = [
      finding('IST0118', 'Service', 'default', 'details'),
      finding('IST0103', 'Pod', 'default', 'web-1'),
      // a code meshdx reports but claims no agreement on is no disagreement
      finding('MDX0104', 'Pod', 'default', 'web-1'),
    ];
    // IST0106 (a schema validation error: meshdx has no schema validator) beside the file's
    const unclaimed = { ...messages[0]!, code: 'IST0106', name: 'gw' };
    const c = compareWithAnalyze(ours, [...messages, unclaimed]);
    expect(c.agreed.map((m) => m.name)).toEqual(['details']);
    expect(c.onlyIstioctl.map((m) => `${m.code} ${m.name}`)).toEqual([
      'IST0101 reviews',
      'IST0103 ratings-v1-7dc98c7588-8x2wz',
      'IST0102 frod',
      'IST0118 productpage',
    ]);
    expect(c.onlyMeshdx.map((f) => `${f.code} ${f.subject.name}`)).toEqual(['IST0103 web-1']);
    // IST0106 is a code meshdx does not check: listed apart, never a disagreement
    expect(c.notClaimed.map((m) => m.code)).toEqual(['IST0106']);
    expect(c.onlyIstioctl.concat(c.agreed).map((m) => m.code)).not.toContain('IST0106');
  });

  it('sets apart a claimed code no check could judge here (its inputs unread)', () => {
    const { messages } = parseAnalyzeOutput(OUTPUT);
    const secret = { ...messages[0]!, code: 'IST0161', kind: 'Gateway', name: 'gw' };
    const judged = compareWithAnalyze([], [secret]);
    expect(judged.onlyIstioctl.map((m) => m.code)).toEqual(['IST0161']);
    const unjudged = compareWithAnalyze([], [secret], new Set(['IST0161']));
    expect(unjudged.onlyIstioctl).toEqual([]);
    expect(unjudged.notClaimed.map((m) => m.code)).toEqual(['IST0161']);
  });
});
