import { QueryClient, dehydrate, type DehydratedState, type QueryKey } from '@tanstack/react-query';
import { pageIdentity } from './auth/page';
import { runAs } from './auth/request';

/** A client query's options (its factory's key and timings) with the server's use case as queryFn. */
export interface Prefetch {
  queryKey: QueryKey;
  queryFn: () => Promise<unknown>;
  staleTime?: unknown;
}

/**
 * Runs the screen's use cases on the server under the same query keys the client uses, so the
 * page arrives with its data. A failing use case is not thrown: the client then fetches the
 * same key and shows the error with its fix. The use cases run as the page's user
 * (MESHDX_AUTH); a page without one is sent to the login.
 */
export async function prefetch(queries: Prefetch[]): Promise<DehydratedState> {
  const qc = new QueryClient();
  const id = await pageIdentity();
  await runAs(id, () =>
    Promise.all(
      queries.map((q) =>
        qc.prefetchQuery({
          queryKey: q.queryKey,
          queryFn: q.queryFn,
          ...(typeof q.staleTime === 'number' ? { staleTime: q.staleTime } : {}),
        }),
      ),
    ),
  );
  return dehydrate(qc);
}
