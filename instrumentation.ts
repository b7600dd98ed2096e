/**
 * Runs once per Next server process: start recording pod and event history, so that pods
 * that are gone (the whole point of the 503 view) and their timelines are kept, and start the
 * watch-fed cluster cache the views read from. Both are best effort: a cluster that is not
 * configured yet is logged and retried, never a crash.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ensureRecorder } = await import('./server/history');
  const { startIncidentHistory } = await import('./server/services/incidents-wiring');
  startIncidentHistory();
  const started = ensureRecorder();
  if (started.error) console.warn(`meshdx: history recorder not started yet: ${started.error}`);
  const timer = setInterval(() => {
    if (!ensureRecorder().error) clearInterval(timer);
  }, 10_000);
  timer.unref();

  const { startClusterCache } = await import('./server/services/cache-start');
  const { processClusterCache } = await import('./server/services/timelines');
  startClusterCache({ cache: processClusterCache });
}
