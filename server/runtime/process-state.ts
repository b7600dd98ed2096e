/**
 * The one process-wide holder of meshdx's state. Next may load a module more than once (route
 * bundles, dev reloads), so module-level variables would be duplicated: each piece of process
 * state (the runtime registry, the request-identity state) is a named slot here instead.
 */
interface Slots {
  registry?: unknown;
  auth?: unknown;
  otlp?: unknown;
}

const holder = globalThis as typeof globalThis & { __meshdx?: Slots };

function slots(): Slots {
  holder.__meshdx ??= {};
  return holder.__meshdx;
}

/** The slot's value, or undefined before it was set. */
export function getSlot<T>(name: keyof Slots): T | undefined {
  return slots()[name] as T | undefined;
}

/** Sets (or, with undefined, clears) a slot. */
export function setSlot<T>(name: keyof Slots, value: T | undefined): void {
  slots()[name] = value;
}
