'use client';

import Link from 'next/link';
import { useContext } from 'react';
import { linkTo } from '../../lib/api/context';
import type { FindingLink } from '../../lib/findings/links';
import { useClusterContext } from '../data/useClusterContext';
import { RowIsTabStop } from '../ui/row-tab-stop';

/**
 * The views that show a finding, as links on the page's cluster context (findingLinks). In a row
 * that is its table's one Tab stop (RowIsTabStop) they are out of the Tab order; a click opens
 * the view and does not also open the row.
 */
export function FindingLinks({ links }: { links: readonly FindingLink[] }) {
  const ctx = useClusterContext();
  const rowIsStop = useContext(RowIsTabStop);
  if (links.length === 0) return null;
  return (
    <span className="ml-1 inline-flex flex-wrap gap-x-2 text-xs" data-testid="finding-links">
      {links.map((l) => (
        <Link
          key={l.path}
          href={linkTo(l.path, l.query, ctx)}
          className="text-sky-700 hover:underline"
          data-testid="finding-link"
          tabIndex={rowIsStop ? -1 : undefined}
          onClick={(e) => e.stopPropagation()}
        >
          {l.label} ›
        </Link>
      ))}
    </span>
  );
}
