/**
 * The ztunnel /config_dump reader the Proxies screen uses: lib/configdump/ztunnel.ts (the same
 * reader `meshdx clusters` uses on a saved dump) turned into lib/ambient/ztunnel.ts's
 * ZtunnelConfig. A dump that is not a ztunnel's is said so, never read as empty.
 */
import type { ZtunnelConfigReader } from './ztunnel';
import { isZtunnelDump, readZtunnelDump } from '../configdump/ztunnel';

export const readZtunnelConfig: ZtunnelConfigReader | null = (root) => {
  if (!isZtunnelDump(root)) {
    return {
      config: { workloads: [], services: [] },
      errors: [
        {
          line: 0,
          reason: 'not-ztunnel-dump',
          message: 'the admin /config_dump is not a ztunnel dump (no workloads or services)',
        },
      ],
    };
  }
  const { dump, errors } = readZtunnelDump(root);
  return { config: dump, errors };
};

export const NO_READER =
  'the ztunnel config_dump reader (lib/configdump/ztunnel.ts) is not in this build';
