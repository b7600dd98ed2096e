/**
 * The ProxyConfig fields that decide startup and shutdown order, read from wherever they live:
 * the pod annotation `proxy.istio.io/config` (YAML or JSON), the `PROXY_CONFIG` env the
 * injector writes on istio-proxy, the mesh `defaultConfig`, and older injections' env vars.
 */
import { parse as parseYaml } from 'yaml';
import type { Container } from '../kube/types';
import { parseDurationMs } from './time';

export interface ProxySettings {
  hold?: boolean;
  drainMs?: number;
  /** proxyMetadata EXIT_ON_ZERO_ACTIVE_CONNECTIONS (the agent env it becomes). */
  exitOnZero?: boolean;
  /** proxyMetadata MINIMUM_DRAIN_DURATION. */
  minDrainMs?: number;
}

export const DEFAULT_DRAIN_MS = 5000;
export const DEFAULT_GRACE_S = 30;
export const DEFAULT_MIN_DRAIN_MS = 5000;

function asBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'True') return true;
  if (v === 'false' || v === 'False') return false;
  return undefined;
}

/** Reads hold/drain from a ProxyConfig-shaped object (camelCase or snake_case keys). */
export function readProxyConfigObject(obj: unknown): ProxySettings {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return {};
  const o = obj as Record<string, unknown>;
  const out: ProxySettings = {};
  const hold = asBool(o.holdApplicationUntilProxyStarts ?? o.hold_application_until_proxy_starts);
  if (hold !== undefined) out.hold = hold;
  const drain = parseDurationMs(o.terminationDrainDuration ?? o.termination_drain_duration);
  if (drain !== null) out.drainMs = drain;
  const meta = o.proxyMetadata ?? o.proxy_metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    const m = meta as Record<string, unknown>;
    const eoz = asBool(m.EXIT_ON_ZERO_ACTIVE_CONNECTIONS);
    if (eoz !== undefined) out.exitOnZero = eoz;
    const min = parseDurationMs(m.MINIMUM_DRAIN_DURATION);
    if (min !== null) out.minDrainMs = min;
  }
  return out;
}

/**
 * JSON text as JSON (what the injector writes into PROXY_CONFIG, on every injected pod): a
 * YAML parse of the same text gives the same value at many times the cost. Anything else, or
 * JSON with a repeated key (which YAML refuses), is left to the YAML parser.
 */
export function parseJsonFirst(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(t);
      if ((t.match(/":/g)?.length ?? 0) === countKeys(value)) return value;
    } catch {
      // not JSON: YAML below
    }
  }
  return parseYaml(text);
}

/** Keys of every mapping in a parsed JSON value (a repeated key in the text counts once here). */
function countKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countKeys(v), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((n: number, v) => n + 1 + countKeys(v), 0);
}

/** Parses a ProxyConfig written as YAML or JSON text; the error is a message, never thrown. */
export function parseProxyConfigText(text: string): { settings: ProxySettings; error?: string } {
  try {
    const value: unknown = parseJsonFirst(text);
    if (value === null || value === undefined) return { settings: {} };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { settings: {}, error: 'proxy config is not a mapping' };
    }
    return { settings: readProxyConfigObject(value) };
  } catch (e) {
    return { settings: {}, error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
}

export function envValue(container: Container | undefined, name: string): string | undefined {
  return container?.env?.find((e) => e.name === name)?.value;
}

/** Settings the injector baked into the proxy container (PROXY_CONFIG, legacy env vars). */
export function proxyContainerSettings(proxy: Container | undefined): {
  settings: ProxySettings;
  errors: string[];
} {
  const errors: string[] = [];
  let settings: ProxySettings = {};
  const raw = envValue(proxy, 'PROXY_CONFIG');
  if (raw !== undefined) {
    const parsed = parseProxyConfigText(raw);
    if (parsed.error) errors.push(`PROXY_CONFIG env: ${parsed.error}`);
    settings = parsed.settings;
  }
  const legacy = envValue(proxy, 'TERMINATION_DRAIN_DURATION_SECONDS');
  if (settings.drainMs === undefined && legacy !== undefined) {
    const ms = parseDurationMs(legacy);
    if (ms !== null) settings = { ...settings, drainMs: ms };
    else errors.push(`TERMINATION_DRAIN_DURATION_SECONDS env: cannot read "${legacy}"`);
  }
  return { settings, errors };
}

/**
 * EXIT_ON_ZERO_ACTIVE_CONNECTIONS as an env var on istio-proxy (true/false), undefined when not
 * set there. When true the agent waits MINIMUM_DRAIN_DURATION, then for zero connections.
 */
export function exitOnZeroEnv(proxy: Container | undefined): boolean | undefined {
  return asBool(envValue(proxy, 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS'));
}

/** MINIMUM_DRAIN_DURATION as an env var on istio-proxy, null when not set or unreadable. */
export function minimumDrainEnvMs(proxy: Container | undefined): number | null {
  const v = envValue(proxy, 'MINIMUM_DRAIN_DURATION');
  return v === undefined ? null : parseDurationMs(v);
}
