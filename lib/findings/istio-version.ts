/**
 * Istio versions as image tags (`docker.io/istio/pilot:1.24.2`) and ISTIO_VERSION give them,
 * read to the release line a finding's versions are counted in (IstioApplicability). Pure.
 *
 * A tag is `[v]MAJOR.MINOR[.PATCH][-SUFFIX]`: `1.24.2`, `1.22.1-distroless`, `1.27.0-beta.1`,
 * `1.26-dev`, `1.26-alpha.<sha>` (a build of master), `1.21.0-1226` (a vendor's build). A
 * pre-release of 1.27 is judged as 1.27 (it carries what 1.27 adds), and says so; a tag that is
 * no version (`latest`, a digest only, a commit hash) names no release: never guessed at.
 */
import type { IstioMinor } from './types';

export interface IstioRelease {
  /** The release line: `1.27`. */
  minor: IstioMinor;
  /** The version as read: `1.27.0-beta.1`, `1.22.1-distroless`. */
  version: string;
  /** An alpha, beta, rc or dev build of its line, judged as that line. */
  preRelease: boolean;
}

const VERSION =
  /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z][0-9A-Za-z.-]*))?(?:\+[0-9A-Za-z.-]+)?$/;
/** Suffixes of a pre-release of the line (semver's and Istio's dev builds). */
const PRE_RELEASE = /^(?:alpha|beta|rc|dev|pre(?:release)?)(?:[.-]|\d|$)/i;

/** The release a version string names, or null when it names none. */
export function parseIstioRelease(version: string): IstioRelease | null {
  const text = version.trim();
  const m = VERSION.exec(text);
  if (m === null) return null;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (!Number.isSafeInteger(major) || !Number.isSafeInteger(minor)) return null;
  const suffix = m[4];
  return {
    minor: `${major}.${minor}`,
    version: text.startsWith('v') ? text.slice(1) : text,
    preRelease: suffix !== undefined && PRE_RELEASE.test(suffix),
  };
}

/** The tag of an image reference (`registry:5000/istio/pilot:1.24.2@sha256:...` -> `1.24.2`). */
export function imageRefTag(image: string): string | null {
  const noDigest = image.split('@')[0] ?? '';
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(colon + 1) || null : null;
}

/** The repository of an image reference without registry and tag (`.../istio/pilot:1` -> `pilot`). */
export function imageRefName(image: string): string {
  const noDigest = image.split('@')[0] ?? '';
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return noDigest.slice(slash + 1, colon > slash ? colon : undefined);
}

/** The release an image's tag names, or null (no tag, `latest`, a digest only). */
export function istioReleaseOfImage(image: string): IstioRelease | null {
  const tag = imageRefTag(image);
  return tag === null ? null : parseIstioRelease(tag);
}

function minorParts(minor: string): [number, number] {
  const [a, b] = minor.split('.');
  return [Number(a), Number(b)];
}

/** Release lines compared: negative when a is older than b. */
export function compareIstioMinors(a: string, b: string): number {
  const [am, an] = minorParts(a);
  const [bm, bn] = minorParts(b);
  return am - bm || an - bn;
}

/** Whether a well-formed release line (`1.24`), as a catalog entry's bounds must be. */
export function isIstioMinor(v: string): v is IstioMinor {
  return /^\d+\.\d+$/.test(v);
}

/** A code's versions as the report carries them (IstioApplicability's bounds, as strings). */
export interface IstioBounds {
  since: string;
  until?: string;
  byDefault?: string;
}

/** Whether release line `minor` is within the entry's versions. */
export function inIstioRange(range: Omit<IstioBounds, 'byDefault'>, minor: string): boolean {
  return (
    compareIstioMinors(minor, range.since) >= 0 &&
    (range.until === undefined || compareIstioMinors(minor, range.until) < 0)
  );
}

/** `Istio ≥1.24`, `Istio ≥1.19 (default from 1.27)`, `Istio ≥1.4, before 1.22`, `any Istio`. */
export function istioRangeText(range: IstioBounds): string {
  const base =
    range.since === '1.0' && range.until === undefined ? 'any Istio' : `Istio ≥${range.since}`;
  const until = range.until === undefined ? '' : `, before ${range.until}`;
  const byDefault = range.byDefault === undefined ? '' : ` (default from ${range.byDefault})`;
  return `${base}${until}${byDefault}`;
}
