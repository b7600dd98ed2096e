# meshdx image: Next.js standalone output on Node 20, non-root, for a read-only root filesystem.
#   docker build -t meshdx:0.1.0 .
# The runtime stage holds only what `next build` traced as needed by the server (server.js, the
# compiled app, the node_modules it requires, better-sqlite3's native module among them) plus
# the static assets: no sources, no dev dependencies, no npm.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds its native module from source (no prebuilt binary is fetched)
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1 MESHDX_STANDALONE=1
RUN node_modules/.bin/next build
# Exactly the files the runtime gets (docs/operating.md's check of the image copies the same set)
RUN mkdir -p /out/.next \
  && cp -a .next/standalone/. /out/ \
  && cp -a .next/static /out/.next/static \
  && if [ -d public ]; then cp -a public /out/public; fi \
  && test -f /out/node_modules/better-sqlite3/build/Release/better_sqlite3.node \
  && test -d /out/node_modules/@kubernetes/client-node

FROM node:20-bookworm-slim AS runtime
# npm, npx and yarn are not needed to run: fewer tools in a compromised container
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/bin/npm /usr/local/bin/npx \
    /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
  && mkdir -p /data && chown 65532:65532 /data
WORKDIR /app
COPY --from=build --chown=0:0 /out/ /app/
# glibc's allocator with fixed thresholds: the multi-megabyte buffers of a fleet view (istiod's
# syncz, Prometheus answers) are mapped and returned to the system when freed. With glibc's
# dynamic threshold, the first 13 MB buffer freed raised it, later ones stayed in the heap, and
# the resident set crept up by ~25 MB over a few views at 20,000 proxies (bench/fleet.bench.ts
# starts the server with these same settings, read from this file).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
# V8's young generation at most 3 x 8 MB instead of 3 x 16: it is resident set too, and a view
# that allocates fast (a fleet of 20,000 proxies) fills it whole. bench/fleet.bench.ts, server
# started as here: 404 MB peak with the default, 385 MB with 8 (first answer 1.4 s either way)
ENV NODE_OPTIONS=--max-semi-space-size=8
# server.js keeps idle connections 65 s: longer than the 60 s idle timeout of the usual ingress
# and than Node clients' 5 s socket reuse, so neither sends on a socket being closed
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 KEEP_ALIVE_TIMEOUT=65000 \
    PORT=3000 HOSTNAME=0.0.0.0 MESHDX_DB=/data/meshdx.sqlite
# The history store (/data) and /tmp are volumes; everything else may be read-only.
VOLUME ["/data", "/tmp"]
USER 65532:65532
EXPOSE 3000
CMD ["node", "server.js"]
