/**
 * `meshdx findings` judged against an istiod version: the one `--istiod-version` gives, else
 * the istiod Pods and Deployment among the objects read (a bug-report archive holds them; plain
 * manifests usually do not: then unknown, never guessed), and how the text and JSON outputs say
 * it.
 */
import { catalogEntry } from '../../lib/findings/registry';
import { istioRangeText, parseIstioRelease } from '../../lib/findings/istio-version';
import { istiodVersionText, istioVerdict, type IstiodVersions } from '../../lib/findings/istiod';
import { istiodOfScreened } from '../../lib/findings/istiod-report';
import type { Screened } from '../../lib/findings/screen';
import type { Finding } from '../../lib/findings/types';

/** The version --istiod-version gives, or why it is no version (a usage error). */
export function givenIstiodVersion(v: string): IstiodVersions | string {
  const r = parseIstioRelease(v);
  if (r === null)
    return `--istiod-version needs an Istio version such as 1.24 or 1.24.2 (not ${JSON.stringify(v)})`;
  return {
    releases: [{ ...r, revision: 'default', from: `--istiod-version ${v}` }],
    unknown: null,
  };
}

/** The istiod to judge by: the given one, else the one among the objects, else unknown. */
export function cliIstiod(given: IstiodVersions | null, screened: Screened): IstiodVersions {
  return (
    given ??
    istiodOfScreened(
      screened,
      'no istiod Pod or Deployment among the objects given (--istiod-version VERSION names one)',
    )
  );
}

/** A finding's Istio versions and whether they take in the istiod judged against, for JSON. */
export function findingIstio(code: string, istiod: IstiodVersions) {
  const e = catalogEntry(code);
  if (e === undefined) return null;
  return {
    versions: istioRangeText(e.istio),
    since: e.istio.since,
    ...(e.istio.until ? { until: e.istio.until } : {}),
    ...(e.istio.byDefault ? { byDefault: e.istio.byDefault } : {}),
    verdict: istioVerdict(e.istio, istiod),
  };
}

/** The JSON output's `istiod`: the versions judged against and the findings not for them. */
export function istiodJson<T>(
  istiod: IstiodVersions & { notApplicable: readonly Finding[] },
  asJson: (f: Finding) => T,
) {
  return {
    releases: istiod.releases,
    unknown: istiod.unknown,
    notApplicable: istiod.notApplicable.map((f) => ({
      ...asJson(f),
      istio: findingIstio(f.code, istiod),
    })),
  };
}

/** The text output's lines on the istiod judged against. */
export function istiodText(istiod: IstiodVersions & { notApplicable: readonly Finding[] }): string {
  if (istiod.releases.length === 0)
    return `istiod version unknown: ${istiod.unknown ?? 'not read'}; no finding is judged by Istio version\n`;
  const from = istiod.releases.map((r) => r.from).join('; ');
  const lines = [
    `judged against istiod ${istiodVersionText(istiod)} (${from})${istiod.unknown ? `; also ${istiod.unknown}` : ''}`,
  ];
  const n = istiod.notApplicable.length;
  if (n > 0) {
    lines.push(`${n} finding${n === 1 ? '' : 's'} not for this istiod, in no count:`);
    for (const f of istiod.notApplicable.slice(0, 20)) {
      const e = catalogEntry(f.code);
      const s = f.subject;
      lines.push(
        `  ${f.code} ${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name} (${e ? istioRangeText(e.istio) : '?'})`,
      );
    }
    if (n > 20) lines.push(`  ... and ${n - 20} more`);
  }
  return `${lines.join('\n')}\n`;
}
