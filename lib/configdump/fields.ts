/**
 * Key access that does not care whether a payload uses snake_case (Envoy /config_dump) or
 * camelCase (protojson, istioctl -o json from Go). Callers always name fields in snake_case.
 */
import { isJsonObject, type JsonObject } from '../json-object';

export type { JsonObject };
export const isObject = isJsonObject;

/** `dynamic_active_clusters` -> `dynamicActiveClusters`. */
export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Reads `obj[snake]`, falling back to `obj[camelCase(snake)]`. */
export function field(obj: unknown, snake: string): unknown {
  if (!isObject(obj)) return undefined;
  if (snake in obj) return obj[snake];
  const camel = camelCase(snake);
  return camel in obj ? obj[camel] : undefined;
}

/** The spelling of the key the object has (snake first), or the snake_case name when neither. */
export function keyOf(obj: unknown, snake: string): string {
  if (!isObject(obj) || snake in obj) return snake;
  const camel = camelCase(snake);
  return camel in obj ? camel : snake;
}

/** True if either spelling of the key is present. */
export function hasField(obj: unknown, snake: string): boolean {
  return field(obj, snake) !== undefined;
}

export function stringField(obj: unknown, snake: string): string | null {
  const v = field(obj, snake);
  return typeof v === 'string' ? v : null;
}

export function objectField(obj: unknown, snake: string): JsonObject | null {
  const v = field(obj, snake);
  return isObject(v) ? v : null;
}

/** Array field; a missing field is an empty list, a non-array is reported as null. */
export function arrayField(obj: unknown, snake: string): unknown[] | null {
  const v = field(obj, snake);
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : null;
}

/** `@type` of an Any payload (identical in both spellings). */
export function anyType(obj: unknown): string {
  return isObject(obj) && typeof obj['@type'] === 'string' ? obj['@type'] : '';
}
