/**
 * The opening every page shares, in one place: the page's scope (pageScope: a bad or missing
 * session goes to the login; a `?context=` that cannot be one is the page that says so), then,
 * for a view page, its window (Incidents, Timelines: a Grafana link's is redirected to the
 * absolute window it meant, a bad one named), its parameters by their kinds (a bad one, or a
 * namespace the cluster does not have, named under the title), the view's own checks, the
 * prefetch of its queries (their use cases run on the server under the client's query keys) and
 * the page: title, the parameters it ignored, the view hydrated with the prefetched data.
 */
import { HydrationBoundary } from '@tanstack/react-query';
import { redirect } from 'next/navigation';
import { Suspense, type ReactElement, type ReactNode } from 'react';
import { PageTitle } from '@/components/ui/Card';
import { ErrorPanel } from '@/components/ui/ErrorPanel';
import { IgnoredParams } from '@/components/ui/IgnoredParams';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { WindowProblem } from '@/components/ui/WindowProblem';
import { linkTo } from '@/lib/api/context';
import type { PageRoute } from '@/lib/api/route-params';
import type { RequestScope } from '@/server/auth/identity';
import { pageScope } from '@/server/auth/page';
import { prefetch, type Prefetch } from '@/server/prefetch';
import { pageQuery, type PageProblem, type PageQuery } from '@/server/screens/page-params';
import { windowAt } from '@/server/screens/window';

/** A page's search params as Next gives them. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The scope of a page, or (`refused`) the page to show instead. */
export type OpenedPage =
  { scope: RequestScope; refused: null } | { scope: null; refused: ReactElement };

/**
 * A page's scope; a link whose `?context=` cannot be a context is the page titled `title` that
 * says so (a missing or expired session has been sent to the login by pageScope).
 */
export async function openPage(title: string, params: SearchParams): Promise<OpenedPage> {
  const at = await pageScope(params);
  if (at.scope !== null) return { scope: at.scope, refused: null };
  return {
    scope: null,
    refused: (
      <>
        <PageTitle title={title} />
        <ErrorPanel title="This link names no cluster context meshdx can use" {...at.problem} />
      </>
    ),
  };
}

/** A view page's parameters, read by their kinds. */
export type ReadQuery<P extends PageRoute> = Extract<PageQuery<P>, { problem: null }>;

/** What a view page is: its route, its words, its checks, its prefetch and its view. */
export interface ViewPageSpec<P extends PageRoute> {
  /** The page's path: the parameters it reads, where its note on ignored ones links. */
  route: P;
  title: string;
  subtitle: string;
  /** The subtitle stands above a refused link's problem too (Incidents). */
  subtitleOnProblems?: boolean;
  /** The window (`from`, `to`) is read first (Incidents, Timelines). */
  windowed?: boolean;
  /** A check of the read parameters beyond their kinds (a sort key): the problem, or null. */
  check?: (q: ReadQuery<P>) => PageProblem | null;
  /** The view's queries, each with its use case (run as the page's scope) as queryFn. */
  prefetch: (scope: RequestScope, q: ReadQuery<P>) => Prefetch[] | Promise<Prefetch[]>;
  /** false: the view is rendered without a Suspense boundary of its own (Timelines). */
  suspense?: boolean;
  view: ReactNode;
}

/** A view page: openPage, the window and parameters checked, the view prefetched and rendered. */
export async function viewPage<P extends PageRoute>(
  searchParams: Promise<SearchParams>,
  page: ViewPageSpec<P>,
): Promise<ReactElement> {
  const { route, title } = page;
  const subtitle = page.subtitleOnProblems ? page.subtitle : undefined;
  const params = await searchParams;
  const opened = await openPage(title, params);
  if (opened.scope === null) return opened.refused;
  const scope = opened.scope;
  const ctx = scope.context;
  let given: SearchParams | URLSearchParams = params;
  if (page.windowed) {
    const win = windowAt(scope, params);
    // a Grafana link's epoch ms or now-15m opens as the absolute window it meant then
    if (win.rewritten) redirect(`${route}?${win.params.toString()}`);
    const problem = win.problem;
    if (problem) {
      // a link with a wrong window says so, naming the parameter, instead of showing another
      // window; the link without its window, its other parameters checked as ever
      const rest = await pageQuery(scope, route, params, ['from', 'to']);
      if (rest.problem)
        return <ParamProblem title={title} subtitle={subtitle} problem={rest.problem} />;
      return (
        <>
          <PageTitle title={title} subtitle={subtitle} />
          <WindowProblem problem={problem} withoutWindow={linkTo(route, rest.params, ctx)} />
        </>
      );
    }
    given = win.params;
  }
  // every filter by its kind, a namespace against the cluster: a bad one is named on the page
  const q = await pageQuery(scope, route, given);
  if (q.problem) return <ParamProblem title={title} subtitle={subtitle} problem={q.problem} />;
  const refused = page.check?.(q) ?? null;
  if (refused) return <ParamProblem title={title} subtitle={subtitle} problem={refused} />;
  const state = await prefetch(await page.prefetch(scope, q));
  return (
    <>
      <PageTitle title={title} subtitle={page.subtitle} />
      <IgnoredParams query={q} page={title} path={route} context={ctx} />
      <HydrationBoundary state={state}>
        {page.suspense === false ? page.view : <Suspense>{page.view}</Suspense>}
      </HydrationBoundary>
    </>
  );
}
