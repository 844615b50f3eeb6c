# syntax=docker/dockerfile:1
# One image recipe for the Node processes; the compose file picks a target:
#   bff, media-service, migrate (migrations, demo seed and the catalog CLI, with ffmpeg).
# Node code runs through tsx, so there is no compile step: the build stage only installs packages.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
# better-sqlite3 falls back to a source build when no prebuilt binary matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY db/package.json db/
COPY bff/package.json bff/
COPY media-service/package.json media-service/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    MEDIA_ROOT=/srv/media \
    VARIANT_CACHE_DIR=/srv/variants
WORKDIR /app
# Code and packages stay root-owned: the service user can read them, not change them.
COPY --from=deps /app /app
COPY tsconfig.json ./
COPY db db
COPY media-service media-service
COPY bff bff
# Named volumes take the ownership of the directory they are first mounted over.
RUN mkdir -p /srv/media /srv/variants /srv/incoming \
 && chown node:node /srv/media /srv/variants
USER node

FROM runtime AS bff
ENV BFF_HOST=0.0.0.0 \
    BFF_PORT=3001
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BFF_PORT||3001)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node directly (not npm) so SIGTERM reaches the process and shutdown drains in-flight requests.
CMD ["node", "--import", "tsx", "bff/src/main.ts"]

FROM runtime AS media-service
ENV MEDIA_HOST=0.0.0.0 \
    MEDIA_PORT=3002
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MEDIA_PORT||3002)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "media-service/src/main.ts"]

FROM runtime AS migrate
USER root
# ffmpeg extracts the four video thumbnails during `npm run catalog -- ingest`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
USER node
CMD ["npm", "run", "migrate", "-w", "db"]
