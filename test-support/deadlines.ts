/**
 * Deadlines for tests that must not depend on how fast the machine is (docs/testing.md "No test
 * depends on the machine's speed").
 *
 * A test that expects a complete answer (every proxy read, every part in) gives the product's
 * deadlines these values: a busy machine then makes it slower, never wrong. A test about
 * lateness makes the lateness itself (a fault that holds an answer far past the deadline it
 * sets), never a short deadline the machine may or may not meet.
 */

/**
 * A view deadline (MESHDX_VIEW_DEADLINE_MS) a complete gather cannot miss: the largest the
 * setting allows. An idle machine gathers the largest scenario in a few seconds.
 */
export const NO_DEADLINE_FOR_COMPLETENESS = 10 * 60_000;

/**
 * A per-proxy timeout (MESHDX_PROXY_TIMEOUT_MS, and the timeout of a test's own proxy reads) a
 * proxy that answers cannot miss: the largest the setting allows. With the product's 4 s, a
 * port-forward read among 32 at once on a loaded machine timed out (Scoping: 110 of 153
 * proxies observed).
 */
export const NO_PROXY_TIMEOUT_FOR_COMPLETENESS = 2 * 60_000;

/** The environment that gives a runtime both (as strings, for process.env). */
export const COMPLETENESS_ENV: Readonly<Record<string, string>> = {
  MESHDX_VIEW_DEADLINE_MS: String(NO_DEADLINE_FOR_COMPLETENESS),
  MESHDX_PROXY_TIMEOUT_MS: String(NO_PROXY_TIMEOUT_FOR_COMPLETENESS),
};

/**
 * How long a hook or test that waits for such a gather may take before Vitest gives up on it:
 * a guard against a hang, not a measure (idle: a few seconds; on a machine loaded seven times
 * over, some 40 s).
 */
export const GATHER_GUARD_MS = 5 * 60_000;

/**
 * How long a test waits for something that is coming (a watch event, a recorded row, a scrape, a
 * rollout) before it fails: a guard, never a measure. The wait ends as soon as the thing is in,
 * so a passing test is no slower for it; the short limits it replaces (1-8 s) were minutes'
 * worth of work on an idle machine but not always on a busy one.
 */
export const EVENT_WAIT_GUARD_MS = 60_000;

/**
 * How long a test lets a child process it starts (the meshdx CLI, kubectl, the demo, Playwright
 * on a tiny project) run before killing it: a guard against a hang, not a measure. Idle, each
 * ends in a second or a few; on a machine loaded some thirteen times over, a Playwright run of
 * three empty tests took 55-60 s (the 60 s this replaces killed it). Below Vitest's test guard
 * (vitest.config.ts), so a hang fails on this guard, naming the command.
 */
export const CHILD_PROCESS_GUARD_MS = 100_000;
