import { z } from 'zod';

export const ClusterInfoSchema = z.object({
  /** What the header shows: context name, "in-cluster" or "simulated: <scenario>". */
  label: z.string(),
  source: z.enum(['kubeconfig', 'in-cluster', 'simulator', 'none']),
  server: z.string(),
  context: z.string().optional(),
  reachable: z.boolean(),
  version: z.string().optional(),
  istioApiVersion: z.string().nullable().optional(),
  error: z
    .object({ code: z.string(), message: z.string(), hint: z.string().optional() })
    .optional(),
});
export type ClusterInfo = z.infer<typeof ClusterInfoSchema>;
