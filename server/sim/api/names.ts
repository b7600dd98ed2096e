/** Kubernetes name validation (apimachinery's IsDNS1123Subdomain / IsDNS1123Label). */
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a name, empty when valid. Namespaces and services need a DNS-1123 label. */
export function nameErrors(name: string, labelOnly: boolean): string[] {
  if (labelOnly) {
    const errs: string[] = [];
    if (name.length > 63) errs.push('must be no more than 63 characters');
    if (!LABEL.test(name)) {
      errs.push(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      );
    }
    return errs;
  }
  const errs: string[] = [];
  if (name.length > 253) errs.push('must be no more than 253 characters');
  if (!SUBDOMAIN.test(name)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}
