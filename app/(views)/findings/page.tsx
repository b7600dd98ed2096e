import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import { findingsQuery } from '@/components/findings/api';
import { FindingsView } from '@/components/findings/FindingsView';
import { getFindings } from '@/server/screens/findings/findings';

export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return viewPage(searchParams, {
    route: '/findings',
    title: 'Findings',
    subtitle: 'What meshdx found, with stable codes and the fix for each.',
    prefetch: (scope) => [{ ...findingsQuery(scope.context), queryFn: () => getFindings(scope) }],
    view: <FindingsView />,
  });
}
