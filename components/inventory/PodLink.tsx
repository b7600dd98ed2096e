'use client';

import Link from 'next/link';
import { useContext, type ReactNode } from 'react';
import { withContext } from '../../lib/api/context';
import { podKeyOf, podPageHref, type PodIdentity } from '../../lib/refs/pod-ref';
import { useClusterContext } from '../data/useClusterContext';
import { RowIsTabStop } from '../ui/row-tab-stop';

/**
 * A pod named on a view, as a link to its page (live or gone), on the page's cluster context:
 * with its uid when the view knows it, the page of that very pod, not of a later namesake.
 * Its text is the pod's `ns/name` unless given; a click opens the page and does not also select
 * the row it sits in. In a row that is its table's one Tab stop (RowIsTabStop), out of the Tab
 * order from the server's HTML on, not only once the page's scripts ran: the row is the stop.
 * Where it sits in a flex row (several pods in one cell) it may shrink, so that a name cut in its
 * middle (ElidedName) is cut rather than drawn over its neighbour.
 */
export function PodLink({ pod, children }: { pod: PodIdentity; children?: ReactNode }) {
  const ctx = useClusterContext();
  const rowIsStop = useContext(RowIsTabStop);
  return (
    <Link
      href={withContext(podPageHref(pod), ctx)}
      className="min-w-0 text-sky-700 hover:underline"
      title={podKeyOf(pod)}
      data-testid="pod-link"
      tabIndex={rowIsStop ? -1 : undefined}
      onClick={(e) => e.stopPropagation()}
    >
      {children ?? podKeyOf(pod)}
    </Link>
  );
}
