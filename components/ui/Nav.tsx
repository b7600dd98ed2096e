'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';

const VIEWS = [
  { href: '/', label: 'Overview' },
  { href: '/timelines', label: 'Timelines' },
  { href: '/proxies', label: 'Proxies' },
  { href: '/scoping', label: 'Scoping' },
  { href: '/incidents', label: '503 Incidents' },
  { href: '/findings', label: 'Findings' },
];

/** View navigation; the namespace travels with you from view to view. */
export function Nav() {
  const path = usePathname();
  const params = useSearchParams();
  const ns = params.get('namespace');
  return (
    <nav aria-label="Views" className="flex gap-1">
      {VIEWS.map((v) => {
        const active = v.href === '/' ? path === '/' : path.startsWith(v.href);
        return (
          <Link
            key={v.href}
            href={ns ? `${v.href}?namespace=${encodeURIComponent(ns)}` : v.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded px-3 py-1.5 text-sm font-medium ${
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
