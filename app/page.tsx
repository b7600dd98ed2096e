import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import { findingsQuery } from '@/components/findings/api';
import { inventoryQuery } from '@/components/inventory/api';
import { OverviewView } from '@/components/overview/OverviewView';
import { getInventory } from '@/server/screens/overview/inventory';
import { findingsAlongside } from '@/server/screens/findings/alongside';

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<SearchParams>;
}) {
  // a namespace in the link is checked as every route checks it (404 when it is not there)
  return viewPage(searchParams, {
    route: '/',
    title: 'Overview',
    subtitle:
      'What needs attention first, and what the cluster has: namespaces, pods with and without an Istio proxy, Sidecar scoping at a glance.',
    prefetch: (scope) => {
      const ctx = scope.context;
      // the findings' first answer comes with the page when it is in with the inventory. Asked
      // inside a promise: a cluster that cannot be reached at all (no kubeconfig) throws as the
      // inventory is asked for, and that is the view's error to show, not the page's 500
      const inventory = (async () => getInventory(scope))();
      return [
        { ...inventoryQuery(ctx), queryFn: () => inventory },
        { ...findingsQuery(ctx), queryFn: () => findingsAlongside(scope, inventory) },
      ];
    },
    view: <OverviewView />,
  });
}
