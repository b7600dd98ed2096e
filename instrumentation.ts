/**
 * Runs once per Next server process: start the default context's cluster runtime, whose one
 * pod watch and one event watch record history into its SQLite store (pods that are gone are
 * the whole point of the 503 view) and feed the views. Best effort: a cluster that is not
 * configured yet is logged and retried, never a crash.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // the dashboard's server only: the OTLP receiver's ports answer in OTLP's shapes
  const { refuseForbiddenMethods } = await import('./server/edge-methods');
  const { allowedMethods } = await import('./server/security/guard');
  const { guardDashboardServer, isDashboardServer } =
    await import('./server/security/dashboard-server');
  refuseForbiddenMethods(allowedMethods, isDashboardServer);
  guardDashboardServer();
  // the host allowlist is checked at start, so a typo shows in the log at once
  const { loadSecurityConfig } = await import('./server/security/config');
  try {
    for (const w of loadSecurityConfig().warnings) console.warn(`meshdx: ${w}`);
  } catch (e) {
    console.error(`meshdx: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { loadEnv } = await import('./server/env');
  const { applyHeapGrowth } = await import('./server/runtime/heap');
  try {
    applyHeapGrowth(loadEnv().MESHDX_HEAP_GROWTH_PERCENT);
  } catch (e) {
    // an invalid setting is reported by every view that loads the configuration as well
    console.error(`meshdx: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { startDefaultRuntime } = await import('./server/runtime/start');
  // the layers that hold pod IPs are read from the start, so an incident finds them recorded
  const { layerSamplerScreen } = await import('./server/screens/incidents/layers');
  startDefaultRuntime({ onRuntime: (rt) => void rt.screen(layerSamplerScreen) });
  // the OTLP access-log receiver, on its own ports when MESHDX_OTLP_*_PORT is set
  const { startConfiguredReceiver } = await import('./server/otlp');
  await startConfiguredReceiver();
}
