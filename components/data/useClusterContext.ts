'use client';

import { useSearchParams } from 'next/navigation';
import { urlContext } from '../../lib/api/context';

/** The cluster context of the page (`?context=`), or null for meshdx's default context. */
export function useClusterContext(): string | null {
  return urlContext(new URLSearchParams(useSearchParams().toString()));
}
