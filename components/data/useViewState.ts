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

/** A view's state, read from and written to the URL (replace, so Back leaves the view). */
export function useViewState<V extends ViewName>(
  view: V,
): [ViewState<V>, (patch: Partial<Record<keyof ViewState<V>, string | undefined>>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const state = useMemo(
    () => parseViewState(view, new URLSearchParams(params.toString())),
    [view, params],
  );
  const update = useCallback(
    (patch: Partial<Record<keyof ViewState<V>, string | undefined>>) => {
      const next = {
        ...(state as Record<string, string | undefined>),
        ...(patch as Record<string, string | undefined>),
        // the cluster travels with every change of the view's state
        [CONTEXT_PARAM]: params.get(CONTEXT_PARAM) ?? undefined,
      };
      router.replace(`${path}${viewStateQuery(next)}`, { scroll: false });
    },
    [state, router, path, params],
  );
  return [state, update];
}
