/**
 * Runs once per Next server process: start the default context's cluster runtime, whose one
 * pod watch and one event watch record history into its SQLite store (pods that are gone are
 * the whole point of the 503 view) and feed the views. Best effort: a cluster that is not
 * configured yet is logged and retried, never a crash.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startDefaultRuntime } = await import('./server/runtime/start');
  startDefaultRuntime();
}
