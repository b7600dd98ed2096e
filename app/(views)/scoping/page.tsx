import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import { scopingQuery } from '@/components/scoping/api';
import { ScopingView } from '@/components/scoping/ScopingView';
import { getScoping } from '@/server/screens/scoping/scoping';

export const dynamic = 'force-dynamic';

export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return viewPage(searchParams, {
    route: '/scoping',
    title: 'Scoping',
    subtitle:
      'Which proxies carry the whole mesh, what their workloads really call, and the Sidecar resources that cut the pushed config.',
    prefetch: (scope) => [{ ...scopingQuery(scope.context), queryFn: () => getScoping(scope) }],
    view: <ScopingView />,
  });
}
