/**
 * Runs once per Next server process: start recording pod and event history, so that pods
 * that are gone (the whole point of the 503 view) and their timelines are kept.
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
}
