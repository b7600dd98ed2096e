import { z } from 'zod';

/** meshdx's server configuration, from the environment, validated once at start-up. */
const EnvSchema = z.object({
  MESHDX_KUBECONFIG: z.string().min(1).optional(),
  MESHDX_CONTEXT: z.string().min(1).optional(),
  /**
   * SQLite history stores: a directory holding one `<context>.sqlite` per cluster context (a
   * PersistentVolume path in a cluster), or a `.sqlite`/`.db` file for the default context (the
   * other contexts then get files beside it), or `:memory:`.
   */
  MESHDX_DB: z.string().min(1).default('data'),
  /**
   * Where watched pod changes take their times from: `api-server` (when meshdx saw them, on the
   * API server's clock) or `objects` (only the times the pod objects carry; for a cluster whose
   * clock does not move with the wall clock, such as a simulated cluster on a frozen clock).
   */
  MESHDX_CLOCK: z.enum(['api-server', 'objects']).default('api-server'),
  /**
   * Failing requests recorded in the history store are kept this many days (by request time),
   * the oldest deleted first.
   */
  MESHDX_FAILURE_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  /** ...and at most this many MiB of them per cluster store; past it the oldest go first. */
  MESHDX_FAILURE_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(256),
  /** Frozen views (Share, /snapshots/ID) are kept this many days, the oldest deleted first. */
  MESHDX_SNAPSHOT_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** ...and at most this many MiB of them per cluster store; past it the oldest go first. */
  MESHDX_SNAPSHOT_MAX_MB: z.coerce.number().int().min(1).max(65_536).default(64),
  /** A context other than the default one is stopped after this many minutes without a request. */
  MESHDX_CONTEXT_IDLE_MINUTES: z.coerce
    .number()
    .min(1)
    .max(24 * 60)
    .default(15),
  MESHDX_PROMETHEUS: z.url().optional(),
  /**
   * Finest step (seconds) of pod-history range queries to Prometheus: the kube-state-metrics
   * scrape interval, when it is finer than the default 15 s.
   */
  MESHDX_PROMETHEUS_STEP: z.coerce.number().int().min(1).max(3600).optional(),
  /**
   * A proxy whose last Envoy sample in Prometheus is older than this (seconds) is shown as
   * unknown, not with stale figures: a few scrape intervals.
   */
  MESHDX_PROMETHEUS_MAX_AGE_S: z.coerce.number().int().min(5).max(3600).default(120),
  MESHDX_ISTIO_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
    .default('istio-system'),
  /**
   * meshdx's own request budget per cluster (watches excluded, as client-go excludes them):
   * sustained requests per second to the API server and the burst above it (server/kube/budget.ts
   * DEFAULT_BUDGET: kubectl's 50 QPS, a third of its burst). A fleet beyond a few hundred proxies
   * belongs to Prometheus (MESHDX_PROMETHEUS), which costs the API server nothing.
   */
  MESHDX_API_QPS: z.coerce.number().min(0.1).max(1000).default(50),
  MESHDX_API_BURST: z.coerce.number().int().min(1).max(5000).default(100),
  /** pods/proxy and port-forward calls in flight at once, for the whole runtime (every screen). */
  MESHDX_PROXY_CONCURRENCY: z.coerce.number().int().min(1).max(512).default(32),
  /**
   * How far V8 lets the server's heap grow past what was live at its last full collection, in
   * percent (server/runtime/heap.ts). V8's own policy grows it up to 4x for a fast collector:
   * with 20,000 pods watched that left the resident set near twice the live heap. 10 keeps it
   * close, for a full collection more often; 0 leaves V8's policy.
   */
  MESHDX_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(400).default(10),
  /**
   * A view answers within this long with what it has, naming what is late (proxies not asked
   * or not answered by then), instead of waiting for the slowest proxy.
   */
  MESHDX_VIEW_DEADLINE_MS: z.coerce.number().int().min(500).max(600_000).default(25_000),
  /**
   * While the first pod list of a big cluster is still running (after a restart), a view waits
   * this long for it, then answers from the pods read so far, saying how far the list got.
   */
  MESHDX_FIRST_ANSWER_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  MESHDX_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(4_000),
  /**
   * How often the layers that hold pod IPs are read (EndpointSlices, istiod's syncz and
   * endpointShardz, the /clusters of clients istiod shows unacknowledged), for Incidents' layer
   * timeline; 0 turns it off. Each read costs 1 + 2 per istiod replica + up to 10 requests.
   */
  MESHDX_LAYER_SAMPLE_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  /**
   * Who the API calls are made as (docs/security.md "Per-user identity"): `none` (meshdx's own
   * credentials, no login: a port-forward install), `token` (each user signs in with a
   * Kubernetes bearer token, used for every call of that session) or `header` (an
   * authenticating proxy in front names the user; meshdx impersonates them).
   */
  MESHDX_AUTH: z.enum(['none', 'token', 'header']).default('none'),
  /** header mode: the request header carrying the user name, set by the authenticating proxy. */
  MESHDX_AUTH_USER_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
    .default('X-Forwarded-User'),
  /** header mode: the request header carrying the user's groups, comma-separated. */
  MESHDX_AUTH_GROUPS_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be an HTTP header name')
    .default('X-Forwarded-Groups'),
  /**
   * token mode: the key sessions are sealed with (at least 32 characters). Without it a random
   * key is made per process, so every session ends when meshdx restarts.
   */
  MESHDX_SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 48`)')
    .optional(),
});

export type MeshdxEnv = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  override name = 'EnvError';
}

export function loadEnv(env: NodeJS.ProcessEnv = process.env): MeshdxEnv {
  const res = EnvSchema.safeParse(env);
  if (!res.success) {
    const problems = res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new EnvError(`invalid meshdx configuration in the environment: ${problems}`);
  }
  return res.data;
}
