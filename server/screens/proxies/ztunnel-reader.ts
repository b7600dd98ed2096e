/**
 * The one place where the ztunnel /config_dump reader is connected: it turns the dump's JSON
 * into lib/ambient/ztunnel.ts's ZtunnelConfig. The reader (lib/configdump/ztunnel.ts, with
 * the other config_dump parsers) is not part of this build yet; until it is, every consumer
 * says so (the ztunnel rows show "no reader" and the workload table the same note).
 *
 * Connecting it is this one export, e.g.:
 *   (root) => isZtunnelDump(root)
 *     ? (({ dump, errors }) => ({ config: dump, errors }))(readZtunnelDump(root))
 *     : { config: { workloads: [], services: [] }, errors: [{ message: 'not a ztunnel dump' }] }
 */
import type { ZtunnelConfigReader } from '../../../lib/ambient/ztunnel';

export const readZtunnelConfig: ZtunnelConfigReader | null = null;

export const NO_READER =
  'the ztunnel config_dump reader (lib/configdump/ztunnel.ts) is not in this build';
