import type { FindingsReport } from '../../lib/api/findings';
import { INVENTORY_CATALOG, inventoryFindings } from '../../lib/findings/inventory';
import { env } from '../wiring';
import { getInventory } from './inventory';

/** Every finding meshdx can make from what it reads, with the catalog that explains the codes. */
export async function getFindings(): Promise<FindingsReport> {
  const inv = await getInventory();
  return {
    generatedAt: new Date().toISOString(),
    catalog: INVENTORY_CATALOG,
    findings: inventoryFindings(inv, env().MESHDX_ISTIO_NAMESPACE),
  };
}
