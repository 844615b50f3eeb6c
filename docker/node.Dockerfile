# syntax=docker/dockerfile:1
# One recipe for the Node images; the compose file picks a target, one per workspace. (The classic
# builder builds every stage before the target: the big ffmpeg stages stay last.)
#   bff, media-service, migrate (db: the migrations), encoder (encoder: the encode worker, with
#   ffmpeg), operator (ops: the operator command line, ingest and the demo seed, with ffmpeg for
#   the video thumbnails), simulator (the card-provider simulator, demo shape only), front-follower
#   (beside each nginx host of a multi-host site; not in the single-host compose file).
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
COPY encoder/package.json encoder/
COPY ops/package.json ops/
COPY bff/package.json bff/
COPY front-follower/package.json front-follower/
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
COPY encoder encoder
COPY ops ops
COPY media-service media-service
COPY bff bff
COPY front-follower front-follower
COPY tools/simulator tools/simulator
RUN npm run build -w db -w encoder -w ops -w media-service -w bff -w front-follower -w tools/simulator

# Production packages per workspace (`-w` installs that workspace's and its workspace
# dependencies' packages, nothing of the frontend or the tests). better-sqlite3 (the embedded
# SQLite default) has no prebuilt binary reachable here, so it is compiled once, for db, and the
# other installs reuse the addon (same locked version). sharp (encoder, ops) ships prebuilt.
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

# The follower runs the bff's generation tracking from its own bundle, so its packages resolve from
# front-follower/ (a package the bff keeps under bff/node_modules, lru-cache, is its own dependency too).
FROM manifests AS follower-deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts -w front-follower \
 && npm cache clean --force \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src
COPY --from=db-deps /app/node_modules/better-sqlite3/build node_modules/better-sqlite3/build

FROM manifests AS encoder-deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts -w encoder \
 && npm cache clean --force \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src
COPY --from=db-deps /app/node_modules/better-sqlite3/build node_modules/better-sqlite3/build

FROM manifests AS ops-deps
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts -w ops \
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
RUN mkdir -p /srv/media /srv/variants /srv/incoming /srv/catalog-generation /srv/backups \
 && chown node:node /srv/media /srv/variants /srv/catalog-generation /srv/backups

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
ENV BFF_HOST=0.0.0.0 \
    BFF_PORT=3001
USER node
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BFF_PORT||3001)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm) so SIGTERM reaches the process and shutdown drains in-flight requests.
CMD ["node", "--enable-source-maps", "bff/dist/main.js"]

# The generation follower, one beside each nginx host that shares no folder with a bff (docs/deploy.md,
# "Several nginx hosts"; docker-compose.multihost.yml). Not in the single-host compose file.
FROM runtime AS front-follower
COPY --from=follower-deps /app /app
COPY --from=build /app/front-follower/dist front-follower/dist
USER node
CMD ["node", "--enable-source-maps", "front-follower/dist/main.js"]

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
RUN printf '#!/bin/sh\nexec node --enable-source-maps /app/db/dist/cli/migrate.js "$@"\n' > /usr/local/bin/migrate \
 && chmod 755 /usr/local/bin/migrate
USER node
CMD ["migrate"]

# ffmpeg for the encoder and the operator (ingest extracts the four video thumbnails): two thirds
# of those images' size, so the migrate job that runs at every start goes without.
FROM runtime AS ffmpeg
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*

FROM ffmpeg AS encoder
COPY --from=encoder-deps /app /app
COPY --from=build /app/encoder/dist encoder/dist
RUN printf '#!/bin/sh\nexec node --enable-source-maps /app/encoder/dist/main.js "$@"\n' > /usr/local/bin/encoder \
 && chmod 755 /usr/local/bin/encoder
USER node
# node directly (not npm) so SIGTERM reaches the worker, which hands running jobs back to the queue.
CMD ["node", "--enable-source-maps", "encoder/dist/main.js", "--watch", "--quiet"]

FROM ffmpeg AS operator
COPY --from=ops-deps /app /app
COPY --from=build /app/ops/dist ops/dist
# The seed's sample clip.
COPY ops/fixtures ops/fixtures
# Operator commands on PATH: ops (and its old name catalog), seed, seed-scale (docs/operate.md).
RUN for c in ops seed seed-scale; do \
      printf '#!/bin/sh\nexec node --enable-source-maps /app/ops/dist/cli/%s.js "$@"\n' "$c" > "/usr/local/bin/$c"; \
      chmod 755 "/usr/local/bin/$c"; \
    done \
 && ln -s ops /usr/local/bin/catalog
USER node
CMD ["ops", "--help"]

# Multi-host shape only (docker-compose.multihost.yml): a stand-in S3-compatible bucket, s3rver with
# the project's corrections (storage/src/s3-local.ts; fixed keys S3RVER/S3RVER). Run from the build
# stage's full install (s3rver and tsx are development packages): a test and evaluation server, never
# a production store.
FROM build AS s3-local
ENV S3_LOCAL_ADDRESS=0.0.0.0 \
    S3_LOCAL_PORT=4569 \
    S3_LOCAL_DIR=/srv/s3
RUN mkdir -p /srv/s3 && chown node:node /srv/s3
USER node
EXPOSE 4569
CMD ["node", "--import", "tsx", "storage/src/s3-local.ts"]
