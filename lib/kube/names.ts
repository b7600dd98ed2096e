/**
 * Kubernetes name rules, checked before any URL is built from a user-supplied name, so that a
 * crafted name ("../../secrets", "a?b") can never turn into a different API request.
 */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export type NameKind = 'namespace' | 'pod' | 'container' | 'service' | 'resource';

export interface NameError {
  kind: NameKind;
  value: string;
  message: string;
}

/** Namespaces and container names are DNS-1123 labels; pods and most objects DNS-1123 subdomains. */
export function checkName(kind: NameKind, value: string): NameError | null {
  const label = kind === 'namespace' || kind === 'container';
  const max = label ? 63 : 253;
  const pattern = label ? DNS1123_LABEL : DNS1123_SUBDOMAIN;
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value.length === 0) return { kind, value, message: `${kind} name is empty` };
  if (value.length > max) {
    return { kind, value, message: `${kind} name ${shown} is longer than ${max} characters` };
  }
  if (!pattern.test(value)) {
    const rule = label ? 'a DNS-1123 label' : 'a DNS-1123 subdomain';
    return {
      kind,
      value,
      message: `invalid ${kind} name ${shown}: must be ${rule} (lowercase letters, digits, '-'${
        label ? '' : " and '.'"
      }, starting and ending with a letter or digit)`,
    };
  }
  return null;
}

export class InvalidNameError extends Error {
  readonly detail: NameError;
  constructor(detail: NameError) {
    super(detail.message);
    this.name = 'InvalidNameError';
    this.detail = detail;
  }
}

/** Returns the name unchanged, or throws InvalidNameError (mapped to HTTP 400 at the edge). */
export function requireName(kind: NameKind, value: string): string {
  const err = checkName(kind, value);
  if (err) throw new InvalidNameError(err);
  return value;
}

/** By name, not instanceof (a bundler may hold several copies of the class). */
export function isInvalidNameError(e: unknown): e is InvalidNameError {
  return (
    e instanceof Error &&
    e.name === 'InvalidNameError' &&
    typeof (e as InvalidNameError).detail === 'object'
  );
}
