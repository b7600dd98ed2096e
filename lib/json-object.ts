/**
 * The first guard of every reader of untrusted documents (a parsed config dump, a kubectl
 * capture, an analyzer file): a parsed JSON object is neither null nor an array.
 */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value when it is a JSON object, else null. */
export function asJsonObject(v: unknown): JsonObject | null {
  return isJsonObject(v) ? v : null;
}
