/**
 * A report's findings judged against the cluster's istiod (lib/findings/istiod.ts), for the CLI
 * and the live server alike: the findings of codes for it stay (counted, grouped), the others
 * are listed apart with the versions read. Pure.
 */
import { istiodVersionsOf, splitByIstiod, type IstiodVersions } from './istiod';
import { catalogEntry } from './registry';
import type { Screened } from './screen';
import type { Finding } from './types';

/** The istiod versions among screened objects: its pods and its Deployment's pod template. */
export function istiodOfScreened(s: Screened, noneWhy: string): IstiodVersions {
  return istiodVersionsOf(s.pods, s.templates, noneWhy);
}

/**
 * The findings for this istiod, and the judgement a report carries: the versions judged
 * against (or why unknown) and the findings not for them.
 */
export function judgeByIstiod<T extends Finding>(
  findings: readonly T[],
  istiod: IstiodVersions,
): { findings: T[]; istiod: IstiodVersions & { notApplicable: T[] } } {
  const { kept, notApplicable } = splitByIstiod(findings, istiod, catalogEntry);
  return { findings: kept, istiod: { ...istiod, notApplicable } };
}
