import { z } from 'zod';
import { LOOPBACK_HOSTS, parseHost, type HostAllowlist } from './hosts';

/** The setting that widens the Host allowlist; named in every refusal so an operator finds it. */
export const ALLOWED_HOSTS_SETTING = 'MESHDX_ALLOWED_HOSTS';

export interface SecurityConfig {
  allowlist: HostAllowlist;
  /** Things an operator should see in the log at start-up (e.g. the check is off). */
  warnings: string[];
}

/** One entry: `*`, or a host name without a port, normalised as a Host header is. */
const EntrySchema = z.string().transform((entry, ctx): string => {
  if (entry === '*') return '*';
  const host = parseHost(entry);
  if (host === null) ctx.addIssue({ code: 'custom', message: `"${entry}" is not a host name` });
  else if (host.port !== undefined)
    ctx.addIssue({
      code: 'custom',
      message: `"${entry}" has a port: list names only, every port is accepted`,
    });
  return host?.hostname ?? '';
});

const SettingSchema = z
  .string()
  .optional()
  .transform((raw) =>
    (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  )
  .pipe(z.array(EntrySchema));

/**
 * Reads MESHDX_ALLOWED_HOSTS: comma-separated host names (an ingress name, a Service's DNS
 * name) added to the loopback names; `*` alone turns the check off, with a warning. Ports are
 * not part of an entry (every port is accepted). Throws naming the setting when an entry is not
 * a host name.
 */
export function loadSecurityConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SecurityConfig {
  const res = SettingSchema.safeParse(env[ALLOWED_HOSTS_SETTING]);
  if (!res.success)
    throw new SecurityConfigError(
      `invalid ${ALLOWED_HOSTS_SETTING}: ${res.error.issues.map((i) => i.message).join('; ')} (expected comma-separated host names, e.g. meshdx.example.com,meshdx.meshdx.svc)`,
    );
  const any = res.data.includes('*');
  const hosts = new Set([...LOOPBACK_HOSTS, ...res.data.filter((h) => h !== '*')]);
  const warnings = any
    ? [
        `${ALLOWED_HOSTS_SETTING}=* turns the Host check off: any web page the browser visits can reach this dashboard by DNS rebinding. Prefer listing the ingress host names.`,
      ]
    : [];
  return { allowlist: { any, hosts }, warnings };
}

export class SecurityConfigError extends Error {
  override name = 'SecurityConfigError';
}
