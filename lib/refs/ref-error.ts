/**
 * A reference that could not be read: names the input, the kind of reference expected and the
 * forms that would have been accepted, so a bad link or a bad log field is explained where it is
 * met rather than turning into a lookup that silently finds nothing.
 */
export class RefError extends Error {
  constructor(
    /** The text as given (cut to 200 characters). */
    readonly input: string,
    /** What it should have been: `pod reference`, `workload reference`, `Envoy node id`. */
    readonly expected: string,
    /** Why it is not one. */
    readonly reason: string,
  ) {
    super(
      `not ${article(expected)} ${expected}: ${JSON.stringify(input.slice(0, 200))}: ${reason}`,
    );
    this.name = 'RefError';
  }
}

/** A namespace is a DNS label (RFC 1123): lower-case alphanumerics and `-`, at most 63. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** An object name is a DNS subdomain: labels joined by dots, at most 253 characters. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `ns` cannot be a namespace, or null when it can. */
export function namespaceProblem(ns: string): string | null {
  if (ns === '') return 'the namespace is empty';
  if (!DNS_LABEL.test(ns)) return `namespace ${JSON.stringify(ns)} is not a DNS label`;
  return null;
}

/** Why `name` cannot be an object name, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name === '') return 'the name is empty';
  if (name.length > 253) return `name is ${name.length} characters long (at most 253)`;
  if (!DNS_SUBDOMAIN.test(name)) return `name ${JSON.stringify(name)} is not a DNS subdomain`;
  return null;
}

function article(word: string): string {
  return /^[aeiouAEIOU]/.test(word) ? 'an' : 'a';
}
