/** What `meshdx report` writes: report.json, and the model index.html is rendered from. */

export const VIEWS = [
  'overview',
  'timelines',
  'proxies',
  'scoping',
  'incidents',
  'findings',
] as const;
export type ReportViewName = (typeof VIEWS)[number];

/** Path of each view relative to the dashboard's base URL ('' is the overview). */
export const VIEW_PATHS: Record<ReportViewName, string> = {
  overview: '',
  timelines: 'timelines',
  proxies: 'proxies',
  scoping: 'scoping',
  incidents: 'incidents',
  findings: 'findings',
};

export function isViewName(s: string): s is ReportViewName {
  return (VIEWS as readonly string[]).includes(s);
}

/** One page to capture: a view or a deep link. */
export interface PagePlan {
  name: string;
  url: string;
  /** PNG file name inside the report directory. */
  file: string;
  kind: 'view' | 'link' | 'snapshot';
  /** A snapshot's frozen JSON, where GET /api/snapshots/ID answers it (kind 'snapshot'). */
  json?: { url: string; file: string };
}

export type PageStatus = 'ok' | 'error';

export interface ReportPage {
  name: string;
  url: string;
  /** PNG file name inside the report directory; null when not even an error page could be shot. */
  file: string | null;
  /**
   * With --pdf: the page itself printed on A4 through the dashboard's print stylesheet (light,
   * no navigation, scrolled regions whole), beside its PNG.
   */
  pdf?: string;
  status: PageStatus;
  error?: string;
  /** --snapshot: the frozen view's JSON as kept, written beside its PNG. */
  json?: string;
}

/** report.json */
export interface ReportJson {
  cluster: string;
  createdAt: string;
  pages: ReportPage[];
}

export interface ReportOptions {
  /** meshdx base URL, normalised to end with '/'. */
  url: string;
  /** Output directory as given (resolved against cwd by the runner); null = default name. */
  out: string | null;
  views: ReportViewName[];
  links: string[];
  /** --snapshot: ids (or /snapshots/ID links) of frozen views to capture, page and JSON. */
  snapshots: string[];
  namespace: string | null;
  width: number;
  pdf: boolean;
  /** Per page: how long to wait for data before capturing it as an error. */
  timeoutMs: number;
}

/** Errors first (in capture order), then the pages that showed data. */
export function errorsFirst(pages: readonly ReportPage[]): ReportPage[] {
  return [...pages.filter((p) => p.status === 'error'), ...pages.filter((p) => p.status === 'ok')];
}
