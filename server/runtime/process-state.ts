/**
 * The one process-wide holder of meshdx's state. Next may load a module more than once (route
 * bundles, dev reloads), so module-level variables would be duplicated: each piece of process
 * state (the runtime registry, the request-identity state, the OTLP receiver) is a named slot
 * here instead.
 *
 * Each slot's type is declared by its owner, beside the code that fills it, by adding the slot
 * to `ProcessSlots` (`declare module '../runtime/process-state' { interface ProcessSlots { … } }`):
 * this module imports none of its owners, and TypeScript refuses two owners declaring one slot
 * with different types.
 */

/** Every slot of the holder and its value's type (each declared by the slot's owner). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the owners' declarations
export interface ProcessSlots {}

const holder = globalThis as typeof globalThis & { __meshdx?: Partial<ProcessSlots> };

function slots(): Partial<ProcessSlots> {
  holder.__meshdx ??= {};
  return holder.__meshdx;
}

/** The slot's value, or undefined before it was set. */
export function getSlot<K extends keyof ProcessSlots>(name: K): ProcessSlots[K] | undefined {
  return slots()[name];
}

/** Sets (or, with undefined, clears) a slot. */
export function setSlot<K extends keyof ProcessSlots>(
  name: K,
  value: ProcessSlots[K] | undefined,
): void {
  slots()[name] = value;
}
