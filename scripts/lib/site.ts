import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnCommand, spawnTs, waitHealthy, type Child, type LogLine } from './process';
import { startDevProxy } from './dev-proxy';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * The card-provider simulator's process entry point, found through its package name (the
 * `@media-site/simulator` workspace's "exports"), not a path into the repository.
 */
export const simulatorEntry = createRequire(import.meta.url).resolve('@media-site/simulator/main');

export interface SiteOptions {
  /** Front door port; 0 picks a free one. */
  port: number;
  host?: string;
  /** Embedded data (SQLite catalog, media tree, variant cache). */
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  mediaRoot?: string;
  /** Where the media service keeps thumbnail variants; default <dataDir>/variants. */
  variantCacheDir?: string;
  /** 'auto' uses nginx when installed, else the Node dev proxy. */
  frontDoor?: 'auto' | 'nginx' | 'node';
  /** Run an encode worker (`ops encode --watch`) beside the services: npm start does, test stacks opt in. */
  encoder?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Variables for one service only (e.g. a diagnostic NODE_OPTIONS). */
  serviceEnv?: { bff?: NodeJS.ProcessEnv; media?: NodeJS.ProcessEnv };
  onLine?: LogLine;
  /** Called once per part as it gets ready: the part's name and where it answers. */
  onReady?: (part: string, detail: string) => void;
}

export interface Site {
  url: string;
  /** The bff's TCP port: what any local process reaches; X-Forwarded-For from there is not believed. */
  bffUrl: string;
  /** The front door's way to the bff, `unix:<BFF_FRONT_SOCKET>`: a second front door in a test uses it too. */
  bffFrontUrl: string;
  mediaUrl: string;
  frontDoor: 'nginx' | 'node';
  /** Where the bff writes the catalog generation for nginx's API cache key (nginx front door only). */
  catalogGenerationDir?: string;
  /** The card-provider simulator, when no CCBILL_BASE_URL was configured. */
  providerUrl?: string;
  /** The service processes, for tests that signal them or read their memory. */
  children: { bff: Child; media: Child; provider?: Child; encoder?: Child };
  stop(): Promise<void>;
}

function hasNginx(): boolean {
  return ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].some((p) => existsSync(p));
}

/** Starts the bff, the media service and a front door; the caller has prepared data and the SPA build. */
export async function startSite(options: SiteOptions): Promise<Site> {
  const onLine = options.onLine ?? ((name, line) => console.log(`[${name}] ${line}`));
  const onReady = options.onReady ?? (() => {});
  const dataDir = resolve(options.dataDir);
  const databaseUrl = options.databaseUrl ?? `sqlite:${resolve(dataDir, 'catalog.sqlite')}`;
  const mediaRoot = options.mediaRoot ?? resolve(dataDir, 'media');
  // The media service resolves MEDIA_ROOT at start; with STORAGE=s3 it stays an empty folder.
  mkdirSync(mediaRoot, { recursive: true });
  const [bffPort, mediaPort] = [await freePort(), await freePort()];
  const useNginx = options.frontDoor === 'nginx' || (options.frontDoor !== 'node' && hasNginx());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    DATABASE_URL: databaseUrl,
    MEDIA_ROOT: mediaRoot,
    VARIANT_CACHE_DIR: options.variantCacheDir ?? resolve(dataDir, 'variants'),
    // Without SMTP_URL the bff writes mail as .eml files under DATA_DIR/outbox (and logs reset links).
    DATA_DIR: dataDir,
    BFF_PORT: String(bffPort),
    MEDIA_PORT: String(mediaPort),
    MEDIA_OFFLOAD: useNginx ? 'nginx' : 'none',
    // sharp on glibc: fewer malloc arenas keep RSS from creeping under concurrent resizes.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  };
  if (options.redisUrl) env.REDIS_URL = options.redisUrl;
  else delete env.REDIS_URL;
  // The bff writes the catalog generation here; nginx keys its API cache on it, resolving the link
  // on every request (one readlink per path component: a short path). Fresh each start: a link left
  // by another database (ahead of this one's generation) would stop the API cache.
  const catalogGenerationDir = useNginx ? mkdtempSync(join(tmpdir(), 'cg-')) : undefined;
  if (catalogGenerationDir) env.FRONT_GENERATION_DIR = catalogGenerationDir;
  // The front door reaches the bff through a Unix socket in a folder only this user can open, and the
  // bff believes X-Forwarded-For from that socket alone: any process may connect to its TCP port
  // (and pick any 127.x source address), so no TCP peer is trusted.
  const frontSocketDir = mkdtempSync(join(tmpdir(), 'bff-'));
  const bffFrontUrl = `unix:${join(frontSocketDir, 'front.sock')}`;
  const bffEnv: NodeJS.ProcessEnv = { BFF_FRONT_SOCKET: join(frontSocketDir, 'front.sock'), TRUSTED_PROXIES: '' };
  const removeTempDirs = () => {
    if (catalogGenerationDir) rmSync(catalogGenerationDir, { recursive: true, force: true });
    rmSync(frontSocketDir, { recursive: true, force: true });
  };

  const children: Child[] = [];
  const stopAll = async () => {
    await Promise.all(children.map((c) => c.stop()));
    removeTempDirs();
  };
  try {
    const bffUrl = `http://127.0.0.1:${bffPort}`;
    const port = options.port || (await freePort());
    const host = options.host ?? '127.0.0.1';
    let providerUrl: string | undefined;
    let provider: Child | undefined;
    if (!env.CCBILL_BASE_URL) {
      // Embedded default: pay end to end against the local simulator (local use only).
      const simPort = env.SIMULATOR_PORT ? Number(env.SIMULATOR_PORT) : await freePort();
      providerUrl = `http://127.0.0.1:${simPort}`;
      // With WEBHOOK_PROXY_SECRET the bff takes webhooks only through the front door (which adds
      // it), as in production; without, straight to the bff.
      const frontHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      const webhookUrl = env.WEBHOOK_PROXY_SECRET ? `http://${frontHost}:${port}/api/ccbill/webhook` : `${bffUrl}/api/ccbill/webhook`;
      const sim = spawnTs(
        'provider',
        simulatorEntry,
        { ...env, SIMULATOR_PORT: String(simPort), SIMULATOR_WEBHOOK_URL: webhookUrl },
        onLine,
      );
      children.push(sim);
      provider = sim;
      await waitHealthy(`${providerUrl}/healthz`, sim);
      onReady('card-provider simulator', `at ${providerUrl}`);
      env.CCBILL_BASE_URL = providerUrl;
      // The simulator's webhooks come from loopback: a private source, allowed explicitly.
      env.WEBHOOK_ALLOWED_IPS ??= '127.0.0.1,::1';
      env.WEBHOOK_ALLOWED_IPS_ALLOW_PRIVATE ??= 'true';
    }
    env.MEDIA_REVOCATION_URL ??= `${bffUrl}/internal/media-revocations`;
    // Links in mail (password reset, e-mail confirmation) point at the site as started here.
    const siteHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    env.SITE_URL ||= `http://${siteHost}:${port}`;
    // One METRICS_PORT for the whole site: the bff takes it, the media service the port after it, the encoder the next.
    const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : undefined;
    const metricsEnv = (offset: number): NodeJS.ProcessEnv => (metricsPort ? { METRICS_PORT: String(metricsPort + offset) } : {});
    const bff = spawnTs(
      'bff',
      resolve(repoRoot, 'bff/src/main.ts'),
      { ...env, ...metricsEnv(0), ...options.serviceEnv?.bff, ...bffEnv },
      onLine,
    );
    children.push(bff);
    const media = spawnTs(
      'media',
      resolve(repoRoot, 'media-service/src/main.ts'),
      { ...env, ...metricsEnv(1), ...options.serviceEnv?.media },
      onLine,
    );
    children.push(media);
    const mediaUrl = `http://127.0.0.1:${mediaPort}`;
    // Ready, not just up: the media service refuses media until it has the bff's takedown and revocation lists.
    await Promise.all([
      waitHealthy(`${bffUrl}/healthz`, bff).then(() => onReady('bff', `at ${bffUrl}`)),
      waitHealthy(`${mediaUrl}/readyz`, media).then(() => onReady('media service', `at ${mediaUrl}`)),
    ]);
    let encoder: Child | undefined;
    if (options.encoder) {
      // Renditions are made in the background (niced); the player says "being prepared" meanwhile.
      encoder = spawnCommand(
        'encoder',
        process.execPath,
        ['--import', 'tsx', resolve(repoRoot, 'encoder/src/main.ts'), '--watch', '--quiet'],
        { ...env, ...metricsEnv(2) },
        onLine,
      );
      children.push(encoder);
      onReady('encoder', '(renditions are made in the background)');
    }

    const spaDir = resolve(repoRoot, 'frontend/dist');
    let closeFrontDoor: () => Promise<void>;
    if (useNginx) {
      const { startNginx, templateVarsFrom } = await import('./nginx');
      const nginx = await startNginx({
        port,
        host,
        bffUrl: bffFrontUrl,
        mediaUrl,
        spaDir,
        mediaRoot,
        workDir: resolve(dataDir, 'nginx'),
        catalogGenerationDir,
        // The browser calls the provider for payment tokens: the CSP must name it.
        providerOrigin: env.CCBILL_PUBLIC_BASE_URL || env.CCBILL_BASE_URL,
        vars: templateVarsFrom(env),
        onLine: (line) => onLine('nginx', line),
      });
      closeFrontDoor = nginx.stop;
    } else {
      const proxy = await startDevProxy({
        port,
        host,
        bffUrl: bffFrontUrl,
        mediaUrl,
        spaDir,
        webhookProxySecret: env.WEBHOOK_PROXY_SECRET,
      });
      closeFrontDoor = proxy.close;
    }
    const url = `http://${host}:${port}`;
    await waitHealthy(`${url}/api/updates/1`, undefined, 15_000);
    onReady(`front door (${useNginx ? 'nginx' : 'Node proxy'})`, `at ${url}`);
    return {
      url,
      bffUrl,
      bffFrontUrl,
      mediaUrl,
      frontDoor: useNginx ? 'nginx' : 'node',
      catalogGenerationDir,
      providerUrl,
      children: { bff, media, provider, encoder },
      async stop() {
        await closeFrontDoor();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
