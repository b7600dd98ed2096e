import type { Metadata } from 'next';
import { Suspense, type ReactNode } from 'react';
import { ClusterHeader } from '@/components/ui/ClusterHeader';
import { Nav } from '@/components/ui/Nav';
import { Providers } from './providers';
import './globals.css';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'meshdx',
  description: 'Istio mesh diagnostics: sidecar races, xDS bloat, phantom-pod 503s',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <header className="bg-slate-800">
            <div className="mx-auto flex max-w-[1400px] flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2">
              <div className="flex items-center gap-6">
                <a href="/" className="font-mono text-lg font-bold tracking-tight text-white">
                  meshdx
                </a>
                <Suspense>
                  <Nav />
                </Suspense>
              </div>
              <Suspense>
                <ClusterHeader />
              </Suspense>
            </div>
          </header>
          <main className="mx-auto max-w-[1400px] px-4 py-5">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
