'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import {
  parseViewState,
  viewStateQuery,
  type ViewName,
  type ViewState,
} from '../../lib/api/viewstate';
import { CONTEXT_PARAM } from '../../lib/api/context';

/** How a change of the view's state enters the browser's history. */
export interface ViewStateWrite {
  /**
   * `true`: a new history entry, so Back returns to the state before (a zoom: Back zooms out).
   * Otherwise the entry is replaced, so Back leaves the view rather than undoing each filter key.
   */
  push?: boolean;
}

/** A view's state, read from and written to the URL. */
export function useViewState<V extends ViewName>(
  view: V,
): [
  ViewState<V>,
  (patch: Partial<Record<keyof ViewState<V>, string | undefined>>, how?: ViewStateWrite) => void,
] {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const state = useMemo(
    () => parseViewState(view, new URLSearchParams(params.toString())),
    [view, params],
  );
  const update = useCallback(
    (patch: Partial<Record<keyof ViewState<V>, string | undefined>>, how?: ViewStateWrite) => {
      const next = {
        ...(state as Record<string, string | undefined>),
        ...(patch as Record<string, string | undefined>),
        // the cluster travels with every change of the view's state
        [CONTEXT_PARAM]: params.get(CONTEXT_PARAM) ?? undefined,
      };
      const url = `${path}${viewStateQuery(next)}`;
      if (how?.push) router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [state, router, path, params],
  );
  return [state, update];
}
