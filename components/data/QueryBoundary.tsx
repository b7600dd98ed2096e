'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorPanel, errorProps } from '../ui/ErrorPanel';

/** Loading, error (with its fix) or the data: the same three states on every view. */
export function QueryBoundary<T>({
  query,
  children,
  what,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
  what: string;
}) {
  if (query.isPending) {
    return (
      <div
        className="animate-pulse rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-500"
        data-testid="loading"
      >
        Loading {what}…
      </div>
    );
  }
  if (query.isError) {
    return <ErrorPanel title={`Could not load ${what}`} {...errorProps(query.error)} />;
  }
  return <>{children(query.data)}</>;
}
