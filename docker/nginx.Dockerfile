# syntax=docker/dockerfile:1
# The front door: the built SPA plus the repository's nginx template, run as an unprivileged user.
ARG NODE_IMAGE=node:26-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.28-alpine

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The same steps as docker/node.Dockerfile's build stage up to the install, so both images share
# that layer; install scripts (better-sqlite3, esbuild) are skipped.
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY storage/package.json storage/
COPY db/package.json db/
COPY encoder/package.json encoder/
COPY ops/package.json ops/
COPY bff/package.json bff/
COPY media-service/package.json media-service/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
COPY tools/simulator/package.json tools/simulator/
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY contracts contracts
COPY frontend frontend
RUN npm run build -w frontend

FROM ${NGINX_IMAGE} AS nginx
# The image's entrypoint runs /docker-entrypoint.d/*.sh before nginx: its own renders
# /etc/nginx/templates/*.template with envsubst into conf.d/ (only variables that are set, so
# nginx's own $uri and friends survive; the template is http-context), ours watches the upstream
# names' addresses and reloads nginx when they change.
USER root
COPY nginx/nginx.conf.template /etc/nginx/templates/default.conf.template
# stub_status on :8081 for the monitoring profile's exporter (compose network only).
COPY nginx/status.conf.template /etc/nginx/templates/status.conf.template
# Rendered into conf.d/snippets/, which conf.d/*.conf does not reach: included by path only.
COPY nginx/snippets /etc/nginx/templates/snippets
COPY docker/nginx-watch-upstreams.sh /docker-entrypoint.d/40-watch-upstreams.sh
RUN rm -f /etc/nginx/conf.d/default.conf && chmod 755 /docker-entrypoint.d/40-watch-upstreams.sh
COPY --from=build /app/frontend/dist /usr/share/nginx/html
# Renders the address lists (FRONT_TRUSTED_PROXIES, WEBHOOK_ALLOWED_IPS) as directives, then runs
# the image's own entrypoint (the file is executable in git). Setting ENTRYPOINT drops the base
# image's CMD: it is repeated below.
COPY docker/nginx-entrypoint.sh /usr/local/bin/front-door-entrypoint.sh
USER nginx
# nginx/nginx.conf.template placeholders (the same defaults as scripts/lib/nginx.ts); compose sets
# the site-specific ones. envsubst leaves unset names alone, so every placeholder needs a value here.
ENV PORT=8080 \
    SPA_DIR=/usr/share/nginx/html \
    BFF_UPSTREAM=bff:3001 \
    MEDIA_UPSTREAM=media-service:3002 \
    MEDIA_ROOT=/srv/media \
    NGINX_SNIPPETS=/etc/nginx/conf.d/snippets \
    NGINX_CACHE_DIR=/tmp/nginx-thumbs \
    THUMB_CACHE_SIZE=512m \
    BFF_KEEPALIVE=128 \
    MEDIA_KEEPALIVE=128 \
    API_CACHE_DIR=/tmp/nginx-api \
    API_CACHE_SIZE=256m \
    EDGE_URL_SECRET= \
    CATALOG_GENERATION_DIR=/srv/catalog-generation \
    ACCESS_LOG="/dev/stdout front_json buffer=64k flush=1s" \
    PROVIDER_ORIGIN=https://api.ccbill.com \
    BILLING_FORM_ORIGINS=https://webmasters.billing-provider.example \
    MEDIA_ORIGINS= \
    HSTS= \
    LOGIN_RATE=20r/m \
    LOGIN_BURST=10 \
    PAYMENT_RATE=30r/m \
    PAYMENT_BURST=20 \
    FRONT_TRUSTED_PROXIES= \
    WEBHOOK_ALLOWED_IPS=64.38.212.0/24,64.38.215.0/24,64.38.240.0/24,64.38.241.0/24 \
    WEBHOOK_PROXY_SECRET= \
    UPSTREAM_WATCH_INTERVAL=2
EXPOSE 8080
# /readyz: nginx answers and reaches both services' readiness through its upstreams.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=5 \
  CMD ["sh", "-c", "wget -q -O /dev/null http://127.0.0.1:${PORT}/readyz || exit 1"]
ENTRYPOINT ["/usr/local/bin/front-door-entrypoint.sh"]
CMD ["nginx", "-g", "daemon off;"]
