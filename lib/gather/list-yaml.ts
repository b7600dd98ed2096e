/**
 * A `kind: List` YAML document as `kubectl get -A a,b,c -o yaml` prints it, written a piece at a
 * time so that a cluster's objects never have to be held at once: the head, each item as a
 * sequence entry (with its apiVersion and kind, which the API leaves out of a list's items and
 * kubectl puts back), then the tail.
 */
import { stringify } from 'yaml';

export const LIST_YAML_HEAD = 'apiVersion: v1\nitems:\n';
export const LIST_YAML_TAIL = 'kind: List\nmetadata:\n  resourceVersion: ""\n';
/** What follows the head when the list has no item (`items:` alone would be null). */
export const LIST_YAML_NO_ITEMS = '  []\n';

/** One item of the list as YAML sequence entries, `apiVersion` and `kind` first. */
export function listYamlItems(items: readonly object[], apiVersion: string, kind: string): string {
  if (items.length === 0) return '';
  const typed = items.map((o) => ({ apiVersion, kind, ...o }));
  // YAML 1.1 quoting: a timestamp, `yes` or `on` stays a string for the 1.1 readers (Go's
  // yaml.v2, PyYAML) as kubectl's own output does
  return stringify(typed, { lineWidth: 0, version: '1.1' });
}
