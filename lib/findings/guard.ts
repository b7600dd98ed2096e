import type { KubeObject } from '../kube/types';
import { PLATFORM } from './codes';
import type { Finding } from './types';

/**
 * Run a check on each object on its own: an object that makes the check throw becomes an MDX0003
 * finding about that object, and the check goes on with the next one.
 */
export function perObject<T extends KubeObject>(
  check: string,
  objects: readonly T[],
  run: (o: T) => Finding[],
): Finding[] {
  const out: Finding[] = [];
  for (const o of objects) {
    try {
      out.push(...run(o));
    } catch (e) {
      out.push(checkFailed(check, o, e));
    }
  }
  return out;
}

/** Run a whole-set check; if it throws, one MDX0003 finding says which check and why. */
export function guarded(check: string, run: () => Finding[]): Finding[] {
  try {
    return run();
  } catch (e) {
    return [checkFailed(check, undefined, e)];
  }
}

function checkFailed(check: string, o: KubeObject | undefined, e: unknown): Finding {
  const meta = o?.metadata as { name?: unknown; namespace?: unknown } | undefined;
  const subject: Finding['subject'] = {
    kind: typeof o?.kind === 'string' ? o.kind : 'Check',
    name: typeof meta?.name === 'string' ? meta.name : check,
  };
  if (typeof meta?.namespace === 'string') subject.namespace = meta.namespace;
  return {
    code: PLATFORM.code.checkFailed,
    severity: PLATFORM.byKey.checkFailed.severity,
    subject,
    part: { kind: 'field', name: check },
    evidence: { check, error: e instanceof Error ? e.message : String(e) },
  };
}
