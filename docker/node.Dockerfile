# syntax=docker/dockerfile:1
# One recipe for the Node images; the compose file picks a target. (The classic builder builds
# every stage before the target: the big operator stage stays last.)
#   bff, media-service, migrate (migrations, demo seed and the operator CLI), operator (migrate
#   plus ffmpeg for ingesting videos), simulator (the card-provider simulator, demo shape only).
# Each runs production JavaScript built here (scripts/build-dist.ts: one bundle per entry point,
# npm packages external) with only its own workspace's production packages. Development runs the
# TypeScript sources through tsx instead.
ARG NODE_IMAGE=node:26-bookworm-slim

# Every workspace's package.json: enough for npm ci, and it changes less often than the sources.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY storage/package.json storage/
COPY db/package.json db/
COPY bff/package.json bff/
COPY media-service/package.json media-service/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
COPY tools/simulator/package.json tools/simulator/

# The bundles. The install is the same layer as docker/nginx.Dockerfile's SPA build (one install
# serves both); install scripts are skipped, nothing native runs here.
FROM manifests AS build
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY scripts/build-dist.ts scripts/
COPY contracts contracts
COPY storage storage
COPY db db
COPY media-service media-service
COPY bff bff
COPY tools/simulator tools/simulator
RUN npm run build -w db -w media-service -w bff -w tools/simulator

# Production packages per workspace (`-w` installs that workspace's and its workspace
# dependencies' packages, nothing of the frontend or the tests). better-sqlite3 (the embedded
# SQLite default) has no prebuilt binary reachable here, so it is compiled once, for db, and the
# bff's install reuses the addon (same locked version).
FROM manifests AS db-deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# Of better-sqlite3's build only the addon is kept (not the SQLite sources and objects: 26 MB).
RUN npm ci --omit=dev --no-audit --no-fund -w db \
 && npm cache clean --force \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/

FROM manifests AS bff-deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts -w bff \
 && npm cache clean --force \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src
COPY --from=db-deps /app/node_modules/better-sqlite3/build node_modules/better-sqlite3/build

FROM manifests AS media-deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts -w media-service \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    MEDIA_ROOT=/srv/media \
    VARIANT_CACHE_DIR=/srv/variants
WORKDIR /app
# Named volumes take the ownership of the directory they are first mounted over.
RUN mkdir -p /srv/media /srv/variants /srv/incoming /srv/catalog-generation \
 && chown node:node /srv/media /srv/variants /srv/catalog-generation

# Demo shape only (docker-compose.demo.yml): the card-provider simulator, no packages at all.
FROM ${NODE_IMAGE} AS simulator
WORKDIR /app
COPY --from=build /app/tools/simulator/dist/simulator.mjs /app/tools/simulator/dist/simulator.mjs.map ./
ENV SIMULATOR_HOST=0.0.0.0 \
    SIMULATOR_PORT=3003
USER node
EXPOSE 3003
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.SIMULATOR_PORT||3003)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "simulator.mjs"]

# Code and packages stay root-owned: the service user can read them, not change them.
FROM runtime AS bff
COPY --from=bff-deps /app /app
COPY --from=build /app/bff/dist bff/dist
# Operator command: docker compose run --rm bff reconcile [...]
RUN printf '#!/bin/sh\nexec node --enable-source-maps /app/bff/dist/reconcile.js "$@"\n' > /usr/local/bin/reconcile \
 && chmod 755 /usr/local/bin/reconcile
ENV BFF_HOST=0.0.0.0 \
    BFF_PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BFF_PORT||3001)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm) so SIGTERM reaches the process and shutdown drains in-flight requests.
CMD ["node", "--enable-source-maps", "bff/dist/main.js"]

FROM runtime AS media-service
COPY --from=media-deps /app /app
COPY --from=build /app/media-service/dist media-service/dist
ENV MEDIA_HOST=0.0.0.0 \
    MEDIA_PORT=3002
USER node
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MEDIA_PORT||3002)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "media-service/dist/main.js"]

FROM runtime AS migrate
COPY --from=db-deps /app /app
COPY --from=build /app/db/dist db/dist
# The seed's sample clip (no ffmpeg here to encode one).
COPY db/fixtures db/fixtures
# Operator commands on PATH: migrate, seed, seed-scale, catalog (docs/operate.md).
RUN for c in migrate seed seed-scale catalog; do \
      printf '#!/bin/sh\nexec node --enable-source-maps /app/db/dist/cli/%s.js "$@"\n' "$c" > "/usr/local/bin/$c"; \
      chmod 755 "/usr/local/bin/$c"; \
    done
USER node
CMD ["migrate"]

# The migrate image plus ffmpeg, which extracts the four video thumbnails during `catalog ingest`
# (two thirds of this image's size, so the migrate job that runs at every start goes without).
FROM migrate AS operator
USER root
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
USER node
CMD ["catalog", "--help"]
