import { z } from 'zod';
import { parseAllowRule, type AllowRule } from '../../lib/otlp/allow';

const port = z.coerce.number().int().min(1).max(65535).optional();

/** The OTLP access-log receiver's settings (docs/operating.md), validated once at start. */
const OtlpEnvSchema = z.object({
  /** OTLP/gRPC (LogsService/Export, what Envoy's OpenTelemetry access logger speaks). Off when unset. */
  MESHDX_OTLP_GRPC_PORT: port,
  /** OTLP/HTTP `POST /v1/logs`, protobuf or JSON (a Collector in between). Off when unset. */
  MESHDX_OTLP_HTTP_PORT: port,
  /** The address both listen on. */
  MESHDX_OTLP_HOST: z.string().min(1).default('0.0.0.0'),
  /** Namespaces whose pods may send, comma-separated, or `meshed` (any pod with an Istio proxy). */
  MESHDX_OTLP_NAMESPACES: z.string().default('meshed'),
  /** Peers always allowed (an OpenTelemetry Collector), comma-separated CIDRs. */
  MESHDX_OTLP_CIDRS: z.string().default(''),
  /** Records accepted per second, sustained; past it a request is refused with a retry delay. */
  MESHDX_OTLP_RATE: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  /** Records accepted at once above the sustained rate. */
  MESHDX_OTLP_BURST: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** Largest request body (after decompression), bytes. */
  MESHDX_OTLP_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .default(4 * 1024 * 1024),
});

/** Every setting the receiver reads. */
export const OTLP_SETTINGS: readonly string[] = Object.keys(OtlpEnvSchema.shape);

export interface OtlpConfig {
  grpcPort: number | null;
  httpPort: number | null;
  host: string;
  allow: AllowRule;
  recordsPerSecond: number;
  burst: number;
  maxBodyBytes: number;
}

export class OtlpConfigError extends Error {
  override name = 'OtlpConfigError';
}

/** The receiver's settings from the environment; throws naming every bad setting. */
export function loadOtlpConfig(env: NodeJS.ProcessEnv = process.env): OtlpConfig {
  const res = OtlpEnvSchema.safeParse(env);
  if (!res.success) {
    const problems = res.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new OtlpConfigError(`invalid OTLP receiver configuration: ${problems}`);
  }
  const e = res.data;
  let allow: AllowRule;
  try {
    allow = parseAllowRule(e.MESHDX_OTLP_NAMESPACES, e.MESHDX_OTLP_CIDRS);
  } catch (err) {
    throw new OtlpConfigError(
      `invalid OTLP receiver configuration: MESHDX_OTLP_NAMESPACES or MESHDX_OTLP_CIDRS: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (e.MESHDX_OTLP_GRPC_PORT !== undefined && e.MESHDX_OTLP_GRPC_PORT === e.MESHDX_OTLP_HTTP_PORT)
    throw new OtlpConfigError(
      'invalid OTLP receiver configuration: MESHDX_OTLP_GRPC_PORT and MESHDX_OTLP_HTTP_PORT must differ',
    );
  return {
    grpcPort: e.MESHDX_OTLP_GRPC_PORT ?? null,
    httpPort: e.MESHDX_OTLP_HTTP_PORT ?? null,
    host: e.MESHDX_OTLP_HOST,
    allow,
    recordsPerSecond: e.MESHDX_OTLP_RATE,
    burst: e.MESHDX_OTLP_BURST,
    maxBodyBytes: e.MESHDX_OTLP_MAX_BYTES,
  };
}
