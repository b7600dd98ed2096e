'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { CONTEXT_PARAM } from '../../lib/api/context';

const VIEWS = [
  { href: '/', label: 'Overview' },
  { href: '/timelines', label: 'Timelines' },
  { href: '/proxies', label: 'Proxies' },
  { href: '/scoping', label: 'Scoping' },
  { href: '/incidents', label: '503 Incidents' },
  { href: '/findings', label: 'Findings' },
];

/** The query that travels from view to view: the cluster context and the namespace. */
function useCarried(): string {
  const params = useSearchParams();
  const carry = new URLSearchParams();
  for (const k of [CONTEXT_PARAM, 'namespace']) {
    const v = params.get(k);
    if (v) carry.set(k, v);
  }
  return carry.toString();
}

/** The logo: Overview of the same cluster context and namespace. */
export function HomeLink() {
  const q = useCarried();
  return (
    <Link
      href={q ? `/?${q}` : '/'}
      className="font-mono text-lg font-bold tracking-tight text-white"
      data-testid="home-link"
    >
      meshdx
    </Link>
  );
}

/** View navigation; the cluster context and the namespace travel with you from view to view. */
export function Nav() {
  const path = usePathname();
  const q = useCarried();
  return (
    <nav aria-label="Views" className="flex gap-1">
      {VIEWS.map((v) => {
        const active = v.href === '/' ? path === '/' : path.startsWith(v.href);
        return (
          <Link
            key={v.href}
            href={q ? `${v.href}?${q}` : v.href}
            aria-current={active ? 'page' : undefined}
            className={`whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium ${
              active
                ? 'bg-white text-slate-900'
                : 'text-slate-300 hover:bg-slate-700 hover:text-white'
            }`}
          >
            {v.label}
          </Link>
        );
      })}
    </nav>
  );
}
