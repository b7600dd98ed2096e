import { QueryClient, dehydrate, type DehydratedState, type QueryKey } from '@tanstack/react-query';

export interface Prefetch {
  queryKey: QueryKey;
  queryFn: () => Promise<unknown>;
}

/**
 * Runs the screen's use cases on the server under the same query keys the client uses, so the
 * page arrives with its data. A failing use case is not thrown: the client then fetches the
 * same key and shows the error with its fix.
 */
export async function prefetch(queries: Prefetch[]): Promise<DehydratedState> {
  const qc = new QueryClient();
  await Promise.all(
    queries.map((q) => qc.prefetchQuery({ queryKey: q.queryKey, queryFn: q.queryFn })),
  );
  return dehydrate(qc);
}
