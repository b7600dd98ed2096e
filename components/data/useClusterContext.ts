'use client';

import { useSearchParams } from 'next/navigation';
import { contextFrom } from '../../lib/api/context';

/** The cluster context of the page (`?context=`), or null for meshdx's default context. */
export function useClusterContext(): string | null {
  return contextFrom(new URLSearchParams(useSearchParams().toString()));
}
