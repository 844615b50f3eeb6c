import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './process';

const nginxDir = resolve(fileURLToPath(new URL('../../nginx', import.meta.url)));

export interface NginxOptions {
  /** One bff, or several replicas (one `server` line each in the site_bff upstream); `unix:/path` for a socket. */
  bffUrl: string | string[];
  /** One media service, or several replicas. */
  mediaUrl: string | string[];
  spaDir: string;
  mediaRoot: string;
  /** Listen port; 0 or absent picks a free one. */
  port?: number;
  host?: string;
  /** Where the rendered config, logs and temp files go; a fresh temp folder (removed on stop) when absent. */
  workDir?: string;
  workers?: number;
  /** Extra http-context config appended after the front door (benchmarks add a static anchor). */
  extraHttp?: string;
  /** Receives nginx's stderr lines (its error log). */
  onLine?: (line: string) => void;
  /** Origin of the card provider's API the browser calls (CSP connect-src and form-action). */
  providerOrigin?: string;
  /** Where the access log goes: a path, /dev/stdout or 'off'; default `<prefix>/access.log`. */
  accessLog?: string;
  /**
   * A file access log past this size becomes `<file>.1` (replacing the last one) and nginx reopens
   * it: at most twice this on disk, plus about a second's lines. Default ACCESS_LOG_MAX_BYTES.
   */
  accessLogMaxBytes?: number;
  /**
   * The bff's FRONT_GENERATION_DIR, the first part of the API cache key; default
   * `<prefix>/catalog-generation`. Created (pointing at generation 0, which caches nothing) when absent.
   */
  catalogGenerationDir?: string;
  /** Overrides any other template value (rate limits, HSTS, ...): see templateDefaults. */
  vars?: Partial<Record<string, string>>;
}

/** The access log's bound (npm start runs for days; a benchmark once grew it to 2 GB): 32 MiB, two files. */
export const ACCESS_LOG_MAX_BYTES = 32 * 1024 * 1024;

/** Checks the log once a second; past `maxBytes`, moves it to `<file>.1` and has nginx reopen it (USR1). */
function boundAccessLog(file: string, maxBytes: number, nginxPid: number): () => void {
  const timer = setInterval(() => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return; // not written yet
    }
    if (size < maxBytes) return;
    try {
      renameSync(file, `${file}.1`);
      process.kill(nginxPid, 'SIGUSR1');
    } catch {
      // nginx stopping, its folder being removed: nothing left to bound.
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Values of the template placeholders that have a sensible default; compose sets the same names. */
export const templateDefaults = {
  PROVIDER_ORIGIN: 'https://api.ccbill.com',
  BILLING_FORM_ORIGINS: 'https://webmasters.billing-provider.example',
  // Where members' media are fetched from after the media service's 302 (STORAGE=s3: the bucket's public
  // endpoint, or the CloudFront distribution): CSP img-src, media-src, connect-src. Empty: the local tree.
  MEDIA_ORIGINS: '',
  // Empty: no Strict-Transport-Security (plain HTTP). Set e.g. "max-age=63072000" behind TLS.
  HSTS: '',
  LOGIN_RATE: '20r/m',
  LOGIN_BURST: '10',
  PAYMENT_RATE: '30r/m',
  PAYMENT_BURST: '20',
  THUMB_CACHE_SIZE: '512m',
  // Idle upstream connections per worker, shared by all of an upstream's replicas (about 64 each).
  BFF_KEEPALIVE: '128',
  MEDIA_KEEPALIVE: '128',
  // The edge URLs' secure_link secret (media-service EDGE_URL_SECRET); empty: the media service refuses them.
  EDGE_URL_SECRET: '',
  // Public catalog answers (nginx.conf.template, "Public catalog answers").
  API_CACHE_SIZE: '256m',
  // A TLS proxy or load balancer in front whose X-Forwarded-For/-Proto nginx believes; empty: nginx is the edge.
  FRONT_TRUSTED_PROXIES: '',
  // The provider's webhook sources (reference/ccbill.md: x.1-x.254 of these four /24s).
  WEBHOOK_ALLOWED_IPS: '64.38.212.0/24,64.38.215.0/24,64.38.240.0/24,64.38.241.0/24',
  // What the webhook location adds for the bff (X-Webhook-Proxy-Secret, the bff's WEBHOOK_PROXY_SECRET); empty: not sent.
  WEBHOOK_PROXY_SECRET: '',
  // Who may reach the operator console, /admin and /api/admin/; empty: everyone.
  ADMIN_ALLOWED_IPS: '',
  // The brand (brandVars): the name in the page title and header, and the logo file (empty: the SPA's own logo.svg).
  SITE_NAME: 'Media Site',
  SITE_LOGO: '',
} satisfies Record<string, string>;

/** What SITE_NAME may hold at the front door: it is written into index.html by nginx (sub_filter). */
const SITE_NAME_RULE = /^[A-Za-z0-9 .,'&!-]{1,60}$/;
/** A logo is a small file; nginx serves it as it is. */
export const SITE_LOGO_MAX_BYTES = 256 * 1024;

/** The logo's type from its first bytes, as the entrypoint reads them (nginx serves it with exactly this type); undefined: not an image we serve. */
function logoType(head: Buffer): string | undefined {
  const text = head.toString('latin1');
  if (text.startsWith('<svg') || text.startsWith('<?xml')) return 'image/svg+xml';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The brand's placeholders (docker/nginx-entrypoint.sh computes the same; a test keeps the two
 * identical): the name HTML-escaped for index.html, and the logo's file, type and versioned URL
 * (its SHA-256 prefix, so the file is cached for good and a new logo is a new URL). A name outside
 * letters, digits, spaces and . , ' & ! - or a logo that is not a small SVG, PNG or WebP stops the
 * start with a message.
 */
export function brandVars(siteName: string, logoFile: string): Record<string, string> {
  if (!SITE_NAME_RULE.test(siteName))
    throw new Error(`SITE_NAME: "${siteName.slice(0, 80)}" must be 1-60 letters, digits, spaces or . , ' & ! -`);
  const fd = openSync(logoFile, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > SITE_LOGO_MAX_BYTES)
      throw new Error(`SITE_LOGO: ${logoFile} is ${size} bytes; a logo may be ${SITE_LOGO_MAX_BYTES} bytes at most`);
    const bytes = Buffer.alloc(size);
    readSync(fd, bytes, 0, size, 0);
    const type = logoType(bytes.subarray(0, 64));
    if (!type) throw new Error(`SITE_LOGO: ${logoFile} is not an SVG, PNG or WebP image`);
    const version = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    return {
      SITE_NAME_HTML: siteName.replaceAll('&', '&amp;').replaceAll("'", '&#39;'),
      SITE_LOGO_FILE: resolve(logoFile),
      SITE_LOGO_TYPE: type,
      SITE_LOGO_URL: `/brand/logo?v=${version}`,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * An address list ("a, b/24") as nginx directives, one per entry. nginx reads addresses and CIDRs
 * only, so anything else (a range "a-b", a name) is refused here rather than at nginx's start.
 * docker/nginx-entrypoint.sh does the same in the image; a test keeps the two identical.
 */
export function addressDirectives(name: string, list: string, directive: (entry: string) => string): string {
  const entries = list.split(/[\s,]+/).filter(Boolean);
  const bad = entries.filter((entry) => !/^[0-9A-Fa-f.:/]+$/.test(entry));
  if (bad.length > 0)
    throw new Error(
      `${name}: "${bad.join('", "')}" is not an address or CIDR (nginx takes no ranges: write 64.38.212.1-64.38.212.254 as 64.38.212.0/24)`,
    );
  return entries.map(directive).join(' ');
}

/** The placeholders the address lists become (the same names docker/nginx-entrypoint.sh exports). */
export function addressListVars(vars: Record<string, string | undefined>): Record<string, string> {
  const trusted = vars.FRONT_TRUSTED_PROXIES ?? '';
  const webhook = vars.WEBHOOK_ALLOWED_IPS ?? '';
  return {
    FRONT_REALIP_FROM: addressDirectives('FRONT_TRUSTED_PROXIES', trusted, (a) => `set_real_ip_from ${a};`),
    FRONT_TRUSTED_GEO: addressDirectives('FRONT_TRUSTED_PROXIES', trusted, (a) => `${a} 1;`),
    WEBHOOK_ALLOWED_GEO: addressDirectives('WEBHOOK_ALLOWED_IPS', webhook, (a) => `${a} 1;`),
    // With the geo's default line. Empty (the default): everyone, by that line alone.
    ADMIN_ALLOWED_GEO: vars.ADMIN_ALLOWED_IPS
      ? `default 0; ${addressDirectives('ADMIN_ALLOWED_IPS', vars.ADMIN_ALLOWED_IPS, (a) => `${a} 1;`)}`
      : 'default 1;',
  };
}

export interface RunningNginx {
  url: string;
  port: number;
  prefix: string;
  stop(): Promise<void>;
}

/** The template values an environment sets (same names as compose: LOGIN_RATE, HSTS, ...). */
export function templateVarsFrom(env: NodeJS.ProcessEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of Object.keys(templateDefaults)) {
    const value = env[name];
    if (value !== undefined && value !== '') vars[name] = value;
  }
  return vars;
}

/** Replaces ${UPPER_CASE} placeholders; nginx's own lowercase variables are left alone. */
export function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`nginx template variable ${name} has no value`);
    return value;
  });
}

/** `http://host:port`, or `unix:/path` (the bff's BFF_FRONT_SOCKET under `npm start`) as nginx writes it. */
function hostPort(url: string): string {
  if (url.startsWith('unix:/')) return url;
  const u = new URL(url);
  return `${u.hostname}:${u.port || 80}`;
}

/** The `server ${X_UPSTREAM};` line's value: several replicas become one server line each. */
export function upstreamServers(urls: string | string[]): string {
  const list = (Array.isArray(urls) ? urls : [urls]).map(hostPort);
  if (list.length === 0) throw new Error('an upstream needs at least one server');
  return list.join(';\n    server ');
}

async function waitForPort(host: string, port: number, exited: () => string | null): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const failure = exited();
    if (failure !== null) throw new Error(`nginx exited: ${failure}`);
    const open = await new Promise<boolean>((r) => {
      const socket = createConnection({ host, port }, () => {
        socket.end();
        r(true);
      });
      socket.on('error', () => r(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('nginx did not start listening');
}

/** The generation folder with a `current` link (to g0 when the bff has not written one yet): nginx resolves it per request. */
async function generationLink(dir: string): Promise<string> {
  const absolute = resolve(dir);
  await mkdir(join(absolute, 'g0'), { recursive: true });
  await symlink('g0', join(absolute, 'current')).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return absolute;
}

/** Renders the repo's nginx templates into a prefix folder and runs a real nginx in the foreground. */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const ownPrefix = !options.workDir;
  const prefix = options.workDir ? resolve(options.workDir) : await mkdtemp(join(tmpdir(), 'nginx-'));
  await mkdir(prefix, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort());
  const snippets = join(prefix, 'snippets');
  await mkdir(snippets, { recursive: true });
  const accessLog = options.accessLog ?? join(prefix, 'access.log');
  // Files are bounded; /dev/stdout (a benchmark's) and 'off' are not files.
  const accessLogFile = accessLog === 'off' || accessLog.startsWith('/dev/') ? undefined : accessLog;
  const vars: Record<string, string> = {
    ...templateDefaults,
    PROVIDER_ORIGIN: options.providerOrigin ? new URL(options.providerOrigin).origin : templateDefaults.PROVIDER_ORIGIN,
    PORT: `${host}:${port}`,
    SPA_DIR: resolve(options.spaDir),
    BFF_UPSTREAM: upstreamServers(options.bffUrl),
    MEDIA_UPSTREAM: upstreamServers(options.mediaUrl),
    MEDIA_ROOT: resolve(options.mediaRoot),
    NGINX_SNIPPETS: snippets,
    NGINX_CACHE_DIR: join(prefix, 'thumb-cache'),
    API_CACHE_DIR: join(prefix, 'api-cache'),
    CATALOG_GENERATION_DIR: await generationLink(options.catalogGenerationDir ?? join(prefix, 'catalog-generation')),
    ACCESS_LOG: accessLog === 'off' ? 'off' : `${accessLog} front_json buffer=64k flush=1s`,
  };
  for (const [name, value] of Object.entries(options.vars ?? {})) if (value !== undefined) vars[name] = value;
  // No SITE_LOGO: the SPA's own logo.svg (a bare test folder as the SPA: the repository's copy).
  const ownLogo = join(vars.SPA_DIR as string, 'logo.svg');
  const logo = vars.SITE_LOGO || (existsSync(ownLogo) ? ownLogo : join(nginxDir, '..', 'frontend/public/logo.svg'));
  Object.assign(vars, addressListVars(vars), brandVars(vars.SITE_NAME as string, logo));
  // Entries are keyed by generation number alone: another run's database may reuse the numbers.
  await rm(vars.API_CACHE_DIR as string, { recursive: true, force: true });
  for (const file of await readdir(join(nginxDir, 'snippets'))) {
    if (!file.endsWith('.template')) continue;
    const rendered = renderTemplate(await readFile(join(nginxDir, 'snippets', file), 'utf8'), vars);
    await writeFile(join(snippets, file.slice(0, -'.template'.length)), rendered);
  }
  const frontDoor = renderTemplate(await readFile(join(nginxDir, 'nginx.conf.template'), 'utf8'), vars);
  const main = renderTemplate(await readFile(join(nginxDir, 'main.conf.template'), 'utf8'), {
    NGINX_PREFIX: prefix,
    NGINX_WORKERS: String(options.workers ?? 1),
  });
  await writeFile(join(prefix, 'front-door.conf'), frontDoor + (options.extraHttp ?? ''));
  await writeFile(join(prefix, 'nginx.conf'), main);

  // As root, nginx would drop its workers to `nobody`, who cannot read mkdtemp's 0700 folders.
  const globals = process.getuid?.() === 0 ? 'daemon off; user root;' : 'daemon off;';
  const child = spawn('nginx', ['-e', 'stderr', '-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', globals], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exit: string | null = null;
  child.stderr.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-8000);
    if (options.onLine) for (const line of text.split('\n')) if (line) options.onLine(line);
  });
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      exit = `code ${code} signal ${signal}: ${stderr}`;
      r();
    }),
  );
  child.once('error', (err) => {
    exit = err.message;
  });
  const cleanup = () => (ownPrefix ? rm(prefix, { recursive: true, force: true }) : Promise.resolve());
  try {
    await waitForPort(host, port, () => exit);
  } catch (err) {
    child.kill('SIGKILL');
    await cleanup();
    throw err;
  }
  const unbound =
    accessLogFile && child.pid ? boundAccessLog(accessLogFile, options.accessLogMaxBytes ?? ACCESS_LOG_MAX_BYTES, child.pid) : () => {};
  return {
    url: `http://${host}:${port}`,
    port,
    prefix,
    async stop() {
      unbound();
      if (exit === null) {
        // SIGQUIT: graceful — workers finish the requests they are serving.
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await cleanup();
    },
  };
}
