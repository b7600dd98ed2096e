import type { Document, ToJSOptions } from 'yaml';

/** How many times aliases may be expanded in one YAML document (the yaml package's default). */
export const YAML_MAX_ALIAS_COUNT = 100;

/**
 * A parsed YAML document's value, with its aliases bounded: a document whose aliases expand
 * past `maxAliasCount` (a "billion laughs" alias bomb) is refused with a message naming the
 * limit, never a ReferenceError thrown at the caller.
 */
export function yamlValue(
  doc: Document,
  maxAliasCount: number = YAML_MAX_ALIAS_COUNT,
): { value: unknown } | { error: string } {
  const options: ToJSOptions = { maxAliasCount };
  try {
    return { value: doc.toJS(options) as unknown };
  } catch (e) {
    if (e instanceof ReferenceError && /alias/i.test(e.message))
      return {
        error: `YAML aliases expand past the limit of ${maxAliasCount} (an alias bomb): not read`,
      };
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
