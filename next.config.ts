import type { NextConfig } from 'next';
import path from 'node:path';

const root = path.resolve(import.meta.dirname);

const nextConfig: NextConfig = {
  serverExternalPackages: [
    '@kubernetes/client-node',
    'better-sqlite3',
    'ws',
    '@grpc/grpc-js',
    'protobufjs',
  ],
  turbopack: { root },
  // The container image runs `.next/standalone/server.js` with only the traced files (see the
  // Dockerfile). `next start` (npm run demo, npm start, the e2e suite) serves the same build
  // but warns that it "does not work" with standalone, so only the image build asks for it.
  output: process.env.MESHDX_STANDALONE === '1' ? 'standalone' : undefined,
  outputFileTracingRoot: root,
  poweredByHeader: false,
  // Next's own trailing-slash redirect runs before proxy.ts, so it skipped the Host check and
  // carried no security headers; proxy.ts redirects pages itself and answers /api with JSON.
  skipTrailingSlashRedirect: true,
  // The whole repo is type-checked once by `npm run check` (tsc --noEmit); not again here.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
