import { z } from 'zod';

/** The views a snapshot can freeze: each has a page that renders its JSON. */
export const SNAPSHOT_VIEWS = ['incidents', 'timelines'] as const;
export type SnapshotView = (typeof SNAPSHOT_VIEWS)[number];

/** A snapshot id: 16 random bytes, base64url (22 characters). */
export const SNAPSHOT_ID = /^[A-Za-z0-9_-]{22}$/;

/** POST /api/snapshots: which view to freeze, with the query of the page that shows it. */
export const FreezeRequestSchema = z.strictObject({
  view: z.enum(SNAPSHOT_VIEWS, { error: `view must be one of ${SNAPSHOT_VIEWS.join(', ')}` }),
  /** The page's search string (`?namespace=shop&from=...`, or ''): the view's filters. */
  query: z
    .string({ error: 'query must be the page URL search string, like ?namespace=shop' })
    .max(8000, 'query is longer than 8000 characters')
    .refine((q) => q === '' || q.startsWith('?'), 'query must be empty or start with "?"'),
});
export type FreezeRequest = z.infer<typeof FreezeRequestSchema>;

/** One snapshot as listed (GET /api/snapshots) and as POST answers it. */
export interface SnapshotInfo {
  id: string;
  view: SnapshotView;
  /** The page that was frozen, relative to meshdx (`/incidents?from=...`). */
  url: string;
  /** The page that reopens it (`/snapshots/ID`, with `?context=` when not the default). */
  link: string;
  /** Its JSON, exactly as the view's API served it. */
  api: string;
  /** The signed-in user who made it, or null when meshdx runs without identities. */
  madeBy: string | null;
  frozenAt: string;
  bytes: number;
}

export interface SnapshotList {
  snapshots: SnapshotInfo[];
  retention: {
    count: number;
    bytes: number;
    oldest: string | null;
    maxAgeDays: number;
    maxBytes: number;
  };
  /** Who may delete which snapshot, in words. */
  deleteRule: string;
}

/** The page path of a view (what a snapshot's "from" link opens live). */
export const VIEW_PAGE: Record<SnapshotView, string> = {
  incidents: '/incidents',
  timelines: '/timelines',
};
