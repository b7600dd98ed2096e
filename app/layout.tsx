import type { Metadata } from 'next';
import { Suspense, type ReactNode } from 'react';
import { ClusterHeader } from '@/components/ui/ClusterHeader';
import { HomeLink, Nav } from '@/components/ui/Nav';
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
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
            data-testid="skip-link"
          >
            Skip to content
          </a>
          <header className="bg-slate-800">
            <div className="mx-auto flex max-w-[1400px] flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2">
              <div className="flex items-center gap-6">
                <Suspense
                  fallback={
                    <a href="/" className="font-mono text-lg font-bold tracking-tight text-white">
                      meshdx
                    </a>
                  }
                >
                  <HomeLink />
                </Suspense>
                <Suspense>
                  <Nav />
                </Suspense>
              </div>
              <Suspense>
                <ClusterHeader />
              </Suspense>
            </div>
          </header>
          <main id="main" tabIndex={-1} className="mx-auto max-w-[1400px] px-4 py-5">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
