/**
 * A proxy's full config dump as a gathered archive keeps it: every section but the
 * SecretsConfigDump (the proxy's certificates and keys, which meshdx never keeps), the rest as
 * Envoy wrote it. Envoy writes the dump as `{"configs": [...]}` with a `@type` per section.
 */
import { isSecretsSection } from '../archive/layout';

export type CleanDump = { text: string; droppedSecrets: boolean } | { error: string };

/** The dump without its secrets section, or why the text is not a config dump. */
export function configDumpWithoutSecrets(text: string): CleanDump {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'not an Envoy config dump: expected an object with "configs"' };
  const configs = (value as { configs?: unknown }).configs;
  if (!Array.isArray(configs))
    return { error: 'not an Envoy config dump: it has no "configs" list' };
  const kept = configs.filter(
    (c) => !isSecretsSection((c as { '@type'?: unknown } | null)?.['@type']),
  );
  return {
    text: JSON.stringify({ ...value, configs: kept }, null, 2) + '\n',
    droppedSecrets: kept.length !== configs.length,
  };
}
