/**
 * The cluster's istiod version, and each finding judged against it: a finding whose code's
 * Istio versions (its catalog entry's `istio`) leave out every istiod the cluster runs is not
 * for this cluster, and is listed apart from the findings (not counted); where no istiod's
 * version is known, nothing is judged (every finding stays, "istiod version unknown").
 *
 * The version is the tag of istiod's image (`docker.io/istio/pilot:1.24.2`), read from its pods
 * and from the pod template of its Deployment, per revision (`istio.io/rev`): a cluster in a
 * canary upgrade runs two, and a finding is for it when it is for either. An image without a
 * tag that names a release (a digest only, `latest`) makes the version unknown: never guessed.
 * Pure.
 */
import type { Pod } from '../kube/types';
import { objectKey } from '../refs/object-ref';
import {
  compareIstioMinors,
  imageRefName,
  inIstioRange,
  istioRangeText,
  istioReleaseOfImage,
  type IstioBounds,
} from './istio-version';

/** One istiod (a revision) whose release its image names. */
export interface IstiodRelease {
  /** The release line it is judged as (an IstioMinor, as the report carries it). */
  minor: string;
  /** Its image tag: `1.24.2`, `1.27.0-beta.1`, `1.22.1-distroless`. */
  version: string;
  preRelease: boolean;
  /** Its istio.io/rev revision (`default` when it has none). */
  revision: string;
  /** Where it was read: `Pod istio-system/istiod-7f9c image docker.io/istio/pilot:1.24.2`. */
  from: string;
}

/** The istiod versions a report is judged against. */
export interface IstiodVersions {
  /** The istiods whose release is known, newest first, one per revision and version. */
  releases: IstiodRelease[];
  /**
   * Why the version is unknown (no istiod among the objects read), or partly unknown (an
   * istiod whose image names no release); null when every istiod seen says its release.
   */
  unknown: string | null;
}

export type IstioVerdict = 'applies' | 'not-applicable' | 'unknown';

/** The containers of istiod (or, before 1.5, Pilot) in a pod: `discovery`, image `.../pilot`. */
function discoveryImages(pod: Pod): string[] {
  const labels = pod.metadata.labels ?? {};
  if (labels.app !== 'istiod' && labels.istio !== 'pilot') return [];
  return (pod.spec?.containers ?? [])
    .filter((c) => c.name === 'discovery' || imageRefName(c.image ?? '') === 'pilot')
    .map((c) => c.image ?? '');
}

/**
 * The istiods among `pods` (running pods) and `templates` (the pod templates of Deployments and
 * the other workload kinds, as lib/findings/screen.ts makes them), or why none says its release.
 * `noneWhy`: what to say when no istiod is among them (where the objects came from).
 */
export function istiodVersionsOf(
  pods: readonly Pod[],
  templates: readonly Pod[],
  noneWhy: string,
): IstiodVersions {
  const releases = new Map<string, IstiodRelease>();
  const unnamed: string[] = [];
  let seen = 0;
  const read = (p: Pod, kind: string) => {
    for (const image of discoveryImages(p)) {
      seen += 1;
      const at = `${kind} ${objectKey(p.metadata.namespace ?? 'default', p.metadata.name)}`;
      const r = istioReleaseOfImage(image);
      if (r === null) {
        unnamed.push(`${at} runs ${image === '' ? 'no image' : image}`);
        continue;
      }
      const revision = p.metadata.labels?.['istio.io/rev'] ?? 'default';
      const key = `${revision}|${r.version}`;
      if (!releases.has(key)) releases.set(key, { ...r, revision, from: `${at} image ${image}` });
    }
  };
  for (const p of pods) read(p, 'Pod');
  for (const t of templates) read(t, t.metadata.ownerReferences?.[0]?.kind ?? 'workload');
  const list = [...releases.values()].sort(
    (a, b) => compareIstioMinors(b.minor, a.minor) || a.revision.localeCompare(b.revision),
  );
  if (seen === 0) return { releases: [], unknown: noneWhy };
  const why =
    unnamed.length === 0
      ? null
      : `${unnamed.slice(0, 3).join('; ')}${unnamed.length > 3 ? ` and ${unnamed.length - 3} more` : ''}: an image tag that names no Istio release`;
  return { releases: list, unknown: why };
}

/**
 * The newest istiod's version among running pods (its image tag, `1.31.0-distroless`), as
 * istiodVersionsOf reads it; null when no istiod says its release. For advice that depends on
 * what the cluster's istiod does (Incidents' outlier advice).
 */
export function newestIstiodVersion(pods: readonly Pod[]): string | null {
  return istiodVersionsOf(pods, [], '').releases[0]?.version ?? null;
}

/**
 * Whether a code's versions take in the cluster's istiod: `applies` when they take in one of its
 * istiods; `not-applicable` when they take in none and every istiod's release is known;
 * `unknown` otherwise (no version known, or an istiod whose release is not).
 */
export function istioVerdict(
  range: Omit<IstioBounds, 'byDefault'>,
  istiod: IstiodVersions,
): IstioVerdict {
  if (istiod.releases.some((r) => inIstioRange(range, r.minor))) return 'applies';
  return istiod.releases.length > 0 && istiod.unknown === null ? 'not-applicable' : 'unknown';
}

/**
 * `1.24.2`, `1.24.2 (default), 1.25.0 (canary)`, `1.27.0-beta.1 (pre-release, judged as 1.27)`:
 * the istiods judged against.
 */
export function istiodVersionText(istiod: Pick<IstiodVersions, 'releases'>): string {
  const several = new Set(istiod.releases.map((r) => r.revision)).size > 1;
  return istiod.releases
    .map((r) => {
      const notes = [
        ...(several ? [r.revision] : []),
        ...(r.preRelease ? [`pre-release, judged as ${r.minor}`] : []),
      ];
      return `${r.version}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
    })
    .join(', ');
}

/**
 * A code's versions and what they say of this cluster: `Istio ≥1.24: applies to istiod 1.24.2`,
 * `Istio ≥1.28: not for istiod 1.24.2`, `any Istio: istiod version unknown`.
 */
export function istioApplicabilityText(
  range: IstioBounds,
  istiod: IstiodVersions | undefined,
): string {
  const versions = istioRangeText(range);
  if (istiod === undefined || istiod.releases.length === 0)
    return `${versions}: istiod version unknown`;
  const v = istioVerdict(range, istiod);
  if (v === 'applies') {
    const these = istiod.releases.filter((r) => inIstioRange(range, r.minor));
    return `${versions}: applies to istiod ${istiodVersionText({ releases: these })}`;
  }
  const not = `${versions}: not for istiod ${istiodVersionText(istiod)}`;
  return v === 'not-applicable' ? not : `${not}; another istiod's version is unknown`;
}

/**
 * The findings of codes for this istiod (kept: shown and counted) and those whose codes are not
 * (listed apart). A code without a catalog entry is kept.
 */
export function splitByIstiod<T extends { code: string }>(
  findings: readonly T[],
  istiod: IstiodVersions,
  entryOf: (code: string) => { istio: Omit<IstioBounds, 'byDefault'> } | undefined,
): { kept: T[]; notApplicable: T[] } {
  const kept: T[] = [];
  const notApplicable: T[] = [];
  const verdicts = new Map<string, IstioVerdict>();
  for (const f of findings) {
    let v = verdicts.get(f.code);
    if (v === undefined) {
      const e = entryOf(f.code);
      v = e === undefined ? 'unknown' : istioVerdict(e.istio, istiod);
      verdicts.set(f.code, v);
    }
    (v === 'not-applicable' ? notApplicable : kept).push(f);
  }
  return { kept, notApplicable };
}
