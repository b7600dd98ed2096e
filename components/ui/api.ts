/**
 * The header's edge, on every page: the cluster the page shows (GET /api/cluster), the
 * kubeconfig's contexts for the picker (GET /api/contexts) and who the user is (GET
 * /api/session), and the wire types the header reads.
 */
import { queryOptions } from '@tanstack/react-query';
import { ClusterInfoSchema, ContextsSchema } from '../../lib/api/cluster';
import { SessionInfoSchema } from '../../lib/api/session';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export type { ArchiveInfo, ClusterInfo } from '../../lib/api/cluster';

export const clusterQuery = (context: string | null) =>
  queryOptions({
    queryKey: ['cluster', context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/cluster', context), (d) => ClusterInfoSchema.parse(d)),
    staleTime: 10_000,
  });

export const contextsQuery = () =>
  queryOptions({
    queryKey: ['contexts'] as const,
    queryFn: () => fetchJson('/api/contexts', (d) => ContextsSchema.parse(d)),
    staleTime: 30_000,
  });

export const sessionQuery = () =>
  queryOptions({
    queryKey: ['session'] as const,
    queryFn: () => fetchJson('/api/session', (d) => SessionInfoSchema.parse(d)),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
