import type { Scenario } from '../world/types';
import { World, type PodEntry } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { PHANTOM_TABLES, runPhantomStory } from './phantom-503';
import { applyTables, calls, fqdn, type NamespaceTable } from './table';

const SERVERS = 'shop';
const CLIENTS = 'storefront';

/** Meshed workers beside the servers in `shop`: 46 pods that call nothing and never fail. */
const WORKERS = [
  { name: 'ledger-sync', replicas: 24 },
  { name: 'recommender', replicas: 22 },
];

/**
 * The phantom-503 story with its clients in another namespace than its servers, and more meshed
 * pods beside the servers than Incidents reads logs of: a view that ranked clients by churn in
 * their own namespace would read the 40 quiet workers in `shop` and miss every 503.
 */
export const CROSS_NS_TABLES: readonly NamespaceTable[] = [
  (() => {
    const shop = PHANTOM_TABLES.find((t) => t.name === SERVERS);
    if (shop === undefined) throw new Error('phantom-503 has no shop namespace');
    return {
      ...shop,
      services: [
        ...shop.services.filter((s) => s.name !== 'checkout'),
        ...WORKERS.map((w) => ({ name: w.name, ports: [{ name: 'http', port: 8080 }] })),
      ],
      workloads: [
        ...shop.workloads.filter((w) => w.name !== 'checkout'),
        ...WORKERS.map((w) => ({ ...w, startAt: -3400 })),
      ],
    };
  })(),
  {
    name: CLIENTS,
    services: [{ name: 'checkout', ports: [{ name: 'http', port: 8080 }] }],
    workloads: [
      {
        name: 'checkout',
        replicas: 2,
        startAt: -3600,
        annotations: calls([
          `${fqdn('payments', SERVERS)}:8080`,
          `${fqdn('inventory', SERVERS)}:8080`,
        ]),
      },
    ],
  },
];

export const phantomCrossNs: Scenario = {
  name: 'phantom-cross-ns',
  description:
    'storefront/checkout calls shop/payments and shop/inventory; 46 meshed workers share shop with the servers; the phantom-503 story (payments rollout at +20s, inventory 4->2 at +60s) fails only the storefront clients',
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    const [shop, storefront] = applyTables(world, CROSS_NS_TABLES);
    if (shop === undefined || storefront === undefined) return;
    const pods = new Map<string, PodEntry[]>(shop.pods);
    pods.set('checkout', storefront.pods.get('checkout') ?? []);
    runPhantomStory(world, pods, shop.deployments);
  },
};
