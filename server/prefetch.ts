import { QueryClient, dehydrate, type DehydratedState, type QueryKey } from '@tanstack/react-query';

/** A client query's options (its factory's key and timings) with the server's use case as queryFn. */
export interface Prefetch {
  queryKey: QueryKey;
  queryFn: () => Promise<unknown>;
  staleTime?: unknown;
}

/**
 * Runs the screen's use cases on the server under the same query keys the client uses, so the
 * page arrives with its data. A failing use case is not thrown: the client then fetches the
 * same key and shows the error with its fix. Each queryFn carries the page's scope (its
 * context and user, resolved by pageScope), so the use cases run as the page's user.
 */
export async function prefetch(queries: Prefetch[]): Promise<DehydratedState> {
  const qc = new QueryClient();
  await Promise.all(
    queries.map((q) =>
      qc.prefetchQuery({
        queryKey: q.queryKey,
        queryFn: q.queryFn,
        ...(typeof q.staleTime === 'number' ? { staleTime: q.staleTime } : {}),
      }),
    ),
  );
  return dehydrate(qc);
}
