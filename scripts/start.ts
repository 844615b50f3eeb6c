import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { DEMO_MEMBER } from '@media-site/ops';
import { buildFrontendIfNeeded, prepareData } from './lib/prepare';
import { startSite } from './lib/site';
import { describeSiteStorage, startSiteStorage, type SiteStorage } from './lib/site-storage';
import { startOutput } from './lib/start-output';
import { writeLocalScrapeConfig } from './lib/scrape-config';

// `npm start`: the whole site on one address with embedded defaults (SQLite, in-process cache,
// generated demo catalog); DATABASE_URL / REDIS_URL switch to real servers.
const env = process.env;
const port = Number(env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`PORT must be an integer 1-65535 (got ${env.PORT})`);
  process.exit(1);
}
const { dataDir, databaseUrl, mediaRoot } = embeddedDefaults(env);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// The bff takes METRICS_PORT, the media service and the encoder the two ports after it.
const metricsBase = env.METRICS_PORT === undefined ? undefined : Number(env.METRICS_PORT);
if (metricsBase !== undefined && !(Number.isInteger(metricsBase) && metricsBase >= 1 && metricsBase <= 65533)) {
  console.error(`METRICS_PORT must be a port number 1-65533 under npm start (got ${env.METRICS_PORT})`);
  process.exit(1);
}

// Quiet until the site is up: a line per part as it gets ready; the parts' own lines only when they
// warn or fail (or, once up, always).
const output = startOutput();
let storage: SiteStorage | null = null;
try {
  buildFrontendIfNeeded();
  // STORAGE=s3: the bucket (the local S3 server when no S3_ENDPOINT is set) before the seed uploads to it.
  storage = await startSiteStorage(env, dataDir, output.onLine);
  if (storage?.local) output.onReady('local S3 server', `at ${storage.local.endpoint}`);
  await prepareData(
    databaseUrl,
    mediaRoot,
    console.log,
    storage ? { storage: storage.settings, scratchDir: join(dataDir, 'scratch') } : undefined,
  );
  const site = await startSite({
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    redisUrl: env.REDIS_URL || undefined,
    mediaRoot,
    frontDoor: (env.FRONT_DOOR as 'auto' | 'nginx' | 'node' | undefined) ?? 'auto',
    encoder: true,
    // Webhooks reach the bff through the front door only, as in production: a fresh secret per start.
    env: { WEBHOOK_PROXY_SECRET: env.WEBHOOK_PROXY_SECRET || randomBytes(32).toString('hex'), ...storage?.env },
    onLine: output.onLine,
    onReady: output.onReady,
  });
  if (storage) console.log(`\n${describeSiteStorage(storage)}`);
  console.log(`\nThe site is up at ${site.url}  (front door: ${site.frontDoor}; Ctrl-C stops it)`);
  console.log(`Sign in as ${DEMO_MEMBER.username} / ${DEMO_MEMBER.password} (local demo only).`);
  if (!env.SMTP_URL)
    console.log(
      `Mail (receipts, password reset links) is written as .eml files to ${env.MAIL_DIR || join(dataDir, 'outbox')}; set SMTP_URL to send it.`,
    );
  if (env.METRICS_PORT) {
    const metricsPort = Number(env.METRICS_PORT);
    const config = writeLocalScrapeConfig(dataDir, repoRoot, metricsPort);
    console.log(
      `Prometheus metrics: bff 127.0.0.1:${metricsPort}, media ${metricsPort + 1}, encoder ${metricsPort + 2}; a local Prometheus with the alert rules: prometheus --config.file=${config}`,
    );
  }
  if (site.providerUrl)
    console.log(
      `Card payments go to the local provider simulator at ${site.providerUrl}: any Luhn-valid card number pays (ending 0000 declines).\n`,
    );
  output.live();
  let stopping = false;
  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    (code === 0 ? console.log : console.error)(`\n${why}: stopping...`);
    const bucket = storage;
    site
      .stop()
      .then(() => bucket?.stop())
      .then(
        () => process.exit(code),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT', 0));
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  // A part that dies takes the site down with it, saying so: its own last lines are just above.
  const parts = [...Object.values(site.children), storage?.local?.child];
  for (const part of parts)
    void part?.exited.then((exitCode) =>
      stop(`npm start: ${part.name} exited unexpectedly (${exitCode === null ? 'killed by a signal' : `exit code ${exitCode}`})`, 1),
    );
} catch (err) {
  output.failed();
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  await storage?.stop();
  process.exit(1);
}
