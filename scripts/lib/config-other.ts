/**
 * Variables no zod schema reads, for docs/configuration.md: nginx's templates (envsubst), compose's
 * interpolation, `npm start` and the provider simulator take them as they are. Kept here, beside the
 * generator, so the reference stays one generated file.
 */
export interface OtherVariable {
  name: string;
  default: string;
  readBy: string;
  meaning: string;
}

export const OTHER_VARIABLES: OtherVariable[] = [
  {
    name: 'PASSWORD_HASH_LOG_N',
    default: '17',
    readBy: 'bff, operator CLI (db/src/members/password.ts)',
    meaning:
      'scrypt cost (2^N, r=8, p=1) of new password hashes, 10–20; the test suite sets 12, and the bff refuses anything below 17 under `NODE_ENV=production`',
  },
  { name: 'PORT', default: '8080', readBy: '`npm start`, compose', meaning: "the front door's port (compose: where nginx is published)" },
  { name: 'HOST', default: '127.0.0.1', readBy: '`npm start`', meaning: "the front door's address" },
  {
    name: 'DB_IMAGE',
    default: 'mariadb:10.11',
    readBy: 'compose',
    meaning: 'the database image: MariaDB 10.11, the engine every test runs; `mysql:8.4` works with the same variables but is untested',
  },
  {
    name: 'FRONT_DOOR',
    default: 'auto',
    readBy: '`npm start`',
    meaning: "`nginx` (the repo's config), `node` (dev proxy) or `auto` (nginx when installed)",
  },
  { name: 'LOGIN_RATE', default: '20r/m', readBy: 'nginx', meaning: 'front-door rate limit of sign-ins' },
  { name: 'LOGIN_BURST', default: '10', readBy: 'nginx', meaning: 'burst allowed above `LOGIN_RATE`' },
  { name: 'PAYMENT_RATE', default: '30r/m', readBy: 'nginx', meaning: 'front-door rate limit of payments' },
  { name: 'PAYMENT_BURST', default: '20', readBy: 'nginx', meaning: 'burst allowed above `PAYMENT_RATE`' },
  { name: 'HSTS', default: 'empty', readBy: 'nginx', meaning: 'set (e.g. `max-age=31536000`) when TLS terminates at or before nginx' },
  { name: 'PROVIDER_ORIGIN', default: "the provider's", readBy: 'nginx', meaning: 'origin the CSP allows for the payment-token call' },
  { name: 'BILLING_FORM_ORIGINS', default: "the provider's", readBy: 'nginx', meaning: 'origins the CSP allows for the affiliate forms' },
  {
    name: 'MEDIA_ORIGINS',
    default: 'empty',
    readBy: 'nginx',
    meaning:
      "with `STORAGE=s3`, the origins members' browsers fetch media from after the media service's 302 (the bucket's public endpoint, or `CLOUDFRONT_URL`): CSP `img-src`, `media-src`, `connect-src`; `npm start` sets it",
  },
  { name: 'THUMB_CACHE_SIZE', default: '512m', readBy: 'nginx', meaning: "nginx's cache of public thumbnails" },
  {
    name: 'SITE_LOGO',
    default: "the SPA's logo.svg",
    readBy: 'nginx',
    meaning:
      'the brand mark in the header and the tab: an SVG, PNG or WebP file of at most 256 KiB (compose mounts it; its URL changes with its bytes)',
  },
  {
    name: 'API_CACHE_DIR',
    default: 'a temp folder (compose: /tmp/nginx-api)',
    readBy: 'nginx',
    meaning: 'where nginx caches public catalog answers, keyed by the catalog generation (deploy.md, "API cache")',
  },
  { name: 'API_CACHE_SIZE', default: '256m', readBy: 'nginx', meaning: 'the size of that cache' },
  {
    name: 'BFF_KEEPALIVE',
    default: '128',
    readBy: 'nginx',
    meaning:
      'idle keep-alive connections each nginx worker keeps to all bff replicas together; about 64 per replica (too few halves throughput with two replicas: deploy.md, "Scaling")',
  },
  { name: 'MEDIA_KEEPALIVE', default: '128', readBy: 'nginx', meaning: 'the same for the media service replicas' },
  {
    name: 'UPSTREAM_WATCH_INTERVAL',
    default: '2',
    readBy: 'nginx image',
    meaning: 'seconds between lookups of the upstream names; nginx reloads when their addresses change (0 = off)',
  },
  {
    name: 'FRONT_TRUSTED_PROXIES',
    default: 'empty',
    readBy: 'nginx',
    meaning:
      'the TLS proxy or load balancer in front of nginx (addresses, CIDRs): only its `X-Forwarded-For` / `X-Forwarded-Proto` are believed; empty = nginx is the edge',
  },
  {
    name: 'ADMIN_ALLOWED_IPS',
    default: 'empty',
    readBy: 'nginx',
    meaning:
      'who may reach the operator console, `/admin` and `/api/admin/` (addresses, CIDRs; the client address after `FRONT_TRUSTED_PROXIES`): anyone else gets 403; empty = everyone. `npm start` without nginx (the Node proxy) does not check it',
  },
  {
    name: 'EDGE_URL_SECRET, WEBHOOK_ALLOWED_IPS, WEBHOOK_PROXY_SECRET',
    default: 'as for the bff',
    readBy: 'nginx',
    meaning: "the same values as the bff's (see its table)",
  },
  {
    name: 'MYSQL_PASSWORD, MYSQL_ROOT_PASSWORD',
    default: 'none (required)',
    readBy: 'compose',
    meaning: "the site's and MySQL's root database passwords; letters and digits (`openssl rand -hex 24`)",
  },
  { name: 'BIND_ADDRESS', default: '127.0.0.1', readBy: 'compose', meaning: "where nginx (and the demo shape's simulator) are published" },
  { name: 'SITE_SUBNET', default: '172.30.89.0/24', readBy: 'compose', meaning: 'the compose network' },
  {
    name: 'BFF_METRICS_PORT, MEDIA_METRICS_PORT, ENCODER_METRICS_PORT',
    default: '9101, 9102, 9103',
    readBy: 'compose',
    meaning: "each service's `METRICS_PORT` on the compose network (not published; the monitoring profile scrapes these)",
  },
  {
    name: 'PROMETHEUS_PORT',
    default: '9090',
    readBy: 'compose (`--profile monitoring`)',
    meaning: 'where Prometheus is published, on 127.0.0.1 only',
  },
  {
    name: 'PROMETHEUS_RETENTION',
    default: '35d',
    readBy: 'compose (`--profile monitoring`)',
    meaning: 'how long Prometheus keeps samples (the chargeback ratio alert reads 30 days)',
  },
  {
    name: 'NGINX_ADDRESS',
    default: '172.30.89.10',
    readBy: 'compose',
    meaning: "nginx's fixed address on it (the one address the bff trusts)",
  },
  {
    name: 'SIMULATOR_ADDRESS',
    default: '172.30.89.20',
    readBy: 'compose demo shape',
    meaning: "the simulator's fixed address (webhook source)",
  },
  {
    name: 'MULTIHOST_SUBNET, MULTIHOST_IP_RANGE, MULTIHOST_GATEWAY',
    default: '172.30.90.0/24, 172.30.90.128/25, 172.30.90.1',
    readBy: 'compose multi-host shape',
    meaning: "its own network (not SITE_SUBNET), the range of its dynamic addresses and the host's address on it",
  },
  {
    name: 'NGINX_A_ADDRESS, NGINX_B_ADDRESS',
    default: '172.30.90.10, 172.30.90.11',
    readBy: 'compose multi-host shape',
    meaning: "the two front doors' fixed addresses on it (the ones the bffs trust)",
  },
  {
    name: 'BUCKET_NODE_ENV',
    default: 'production',
    readBy: 'compose multi-host shape',
    meaning:
      '`NODE_ENV` of the services that reach the bucket: `development` to try the file with its stand-in bucket, whose fixed keys production refuses',
  },
  {
    name: 'BUILD_NETWORK',
    default: 'default',
    readBy: 'compose',
    meaning: "network of the image builds (`host` where Docker's bridge has no route out)",
  },
  {
    name: 'SIMULATOR_PORT',
    default: '3003',
    readBy: 'simulator, compose demo shape',
    meaning: "the card-provider simulator's port (the demo shape publishes it)",
  },
  { name: 'SIMULATOR_HOST', default: '127.0.0.1', readBy: 'simulator', meaning: "the simulator's address" },
  {
    name: 'SIMULATOR_STALL_MS',
    default: '30000',
    readBy: 'simulator',
    meaning: 'how long a stalled charge (card number ending 0002) hangs before it is approved',
  },
  { name: 'SIMULATOR_TOKEN_LIFETIME_S', default: '3600', readBy: 'simulator', meaning: 'life of the OAuth tokens it issues' },
  { name: 'SIMULATOR_WEBHOOK_URL', default: 'unset', readBy: 'simulator', meaning: 'where it posts webhooks' },
  { name: 'SIMULATOR_AUTO_WEBHOOKS', default: 'on', readBy: 'simulator', meaning: '`0`: post no webhook on its own' },
];
