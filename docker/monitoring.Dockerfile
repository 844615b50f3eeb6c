# syntax=docker/dockerfile:1
# The monitoring profile's one image (docker-compose.yml and docker-compose.multihost.yml, `--profile monitoring`): Prometheus and the
# exporters Debian ships, each service of the profile running one of them. Debian's packages rather
# than the upstream images: one base, one update path, the same binaries CI's promtool tests.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends prometheus prometheus-node-exporter prometheus-mysqld-exporter \
      prometheus-redis-exporter prometheus-nginx-exporter ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /prometheus && chown prometheus:prometheus /prometheus
# The scrape configurations (single-host and multi-host) and the alert rules (monitoring/alerts.yml,
# tested by promtool in CI).
COPY monitoring/prometheus.yml monitoring/prometheus-multihost.yml monitoring/alerts.yml /etc/media-site/
USER prometheus
CMD ["prometheus", "--config.file=/etc/media-site/prometheus.yml", "--storage.tsdb.path=/prometheus", "--storage.tsdb.retention.time=35d", "--web.listen-address=:9090"]
