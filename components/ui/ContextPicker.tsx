'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { CONTEXT_PARAM } from '../../lib/api/context';
import { contextsQuery } from './api';

/**
 * The cluster picker: the kubeconfig's contexts (one for in-cluster). Choosing one keeps the
 * view and puts `?context=` in the URL, so the link reopens that cluster; selections that
 * belong to the old cluster (a pod, a proxy, a client) are dropped.
 */
export function ContextPicker({ current }: { current: string | null }) {
  const router = useRouter();
  const path = usePathname();
  const params = useSearchParams();
  const q = useQuery(contextsQuery());
  const list = q.data?.contexts ?? [];
  if (list.length < 2) return null;
  const selected = current ?? q.data?.default ?? '';
  return (
    <label className="flex items-center gap-1 text-xs text-slate-300">
      <span>cluster</span>
      <select
        data-testid="context-picker"
        aria-label="Cluster context"
        className="rounded bg-slate-700 px-1.5 py-1 font-mono text-xs text-white"
        value={selected}
        onChange={(e) => {
          const next = new URLSearchParams();
          const ns = params.get('namespace');
          if (ns) next.set('namespace', ns);
          if (e.target.value !== q.data?.default) next.set(CONTEXT_PARAM, e.target.value);
          const s = next.toString();
          router.push(s ? `${path}?${s}` : path);
        }}
      >
        {list.map((c) => (
          <option key={c.name} value={c.name} title={c.server}>
            {c.name}
            {c.current ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
