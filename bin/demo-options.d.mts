// Types of bin/demo-options.mjs, for the tests that call it (tests/cli/demo-options.test.ts).

export const DEMO_USAGE: string;

export interface DemoOptions {
  port: number;
  host: string;
  scenarios: string[];
  /** An ISO time the simulated clocks are frozen at; undefined: the wall clock. */
  clock: string | undefined;
  rebuild: boolean;
  freshHistory: boolean;
  /** Absolute. */
  dataDir: string;
}

export function parseDemoArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): { help: true } | { error: string } | { options: DemoOptions };

export function defaultDataDir(root: string, port: number): string;
export function kubeconfigPath(dataDir: string, scenario: string): string;
export function claimFile(dataDir: string): string;
export function claimDataDir(
  dataDir: string,
  me: { pid: number; url: string },
): Promise<{ ok: true } | { heldBy: { pid: number; url: string | null } }>;
export function releaseDataDir(dataDir: string, pid: number): void;
/** When the process with this id started (Linux /proc starttime), or null where unknown. */
export function processStart(pid: number): string | null;
