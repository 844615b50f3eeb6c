import { z } from 'zod';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { redisHaProblem } from '@media-site/db';
import { parseHolidays } from '@media-site/db/moderation';
import { placeholderReason, weakKeyReason } from '@media-site/contracts/secret-policy';
import { providerConfigShape, refuseSimulatorInProduction } from './provider/config';
import { refuseLocalSecurityInProduction, securityConfigShape } from './security/config';
import { mailConfigShape, mailSettings, refuseMailProblemsInProduction } from './mail/config';
import { intSetting, parsedBy } from './config-schema';
import { siteNameSetting } from '@media-site/contracts/site-name';
import { metricsEnv } from '@media-site/contracts/metrics-env';

// DATA_DIR / DATABASE_URL: the embedded defaults every process shares (contracts/embedded-defaults).

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

function urlPassword(url: string | undefined): string {
  try {
    return url ? decodeURIComponent(new URL(url).password) : '';
  } catch {
    return '';
  }
}

export const configSchema = z
  .object({
    BFF_PORT: intSetting(3001, 0, 65535).describe("the bff's listen port"),
    BFF_HOST: z.string().min(1).default('127.0.0.1').describe("the bff's listen address"),
    BFF_FRONT_SOCKET: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .describe(
        "a Unix socket path the bff also listens on, for the front door on the same host (`npm start` sets it, in a folder only its user can open): what arrives there is the front door's, whose `X-Forwarded-For` / `-Proto` are believed whatever `TRUSTED_PROXIES` says; unset: none",
      ),
    DATA_DIR: z.string().optional().meta({
      description:
        'embedded SQLite catalog, media tree, variant cache, nginx prefix; a relative value is taken from the repository root; empty counts as unset (one rule for every process: `embeddedDefaults` in `contracts/src/embedded-defaults.ts`)',
      defaultText: '`<repo>/.data`',
    }),
    INGEST_ROOT: z.string().optional().meta({
      description:
        "the folder whose sub-folders the operator console may ingest (compose: the media volume's `incoming` folder); the console never reaches outside it; a relative value is taken from the repository root",
      defaultText: '`$DATA_DIR/incoming`',
    }),
    DATABASE_URL: optionalUrl
      .refine((v) => v === undefined || /^(?:mysql2?|mariadb):\/\/|^sqlite:/.test(v), {
        message: 'must start with mysql://, mariadb:// or sqlite:',
      })
      .meta({
        description:
          '`mysql://user:pass@host:3306/db` (MySQL 8, MariaDB 10.11+) or `sqlite:path`; also read by the operator commands; production refuses a password containing `change-me`',
        defaultText: '`sqlite:$DATA_DIR/catalog.sqlite`',
      }),
    DATABASE_POOL_MAX: intSetting(10, 1, 200).describe("MySQL pool size (the primary's, and each read replica's)"),
    DATABASE_READ_URL: optionalUrl
      .refine((v) => v === undefined || v.split(',').every((u) => !u.trim() || /^(?:mysql2?|mariadb):\/\//.test(u.trim())), {
        message: 'must be one or more comma-separated mysql:// or mariadb:// URLs',
      })
      .describe(
        'read replicas for catalog reads: one `mysql://` URL or several, comma-separated; unset = the primary answers everything. Members, sessions, payments, webhooks, takedowns and every write use `DATABASE_URL`; a replica answers only once it has replayed the catalog generation the bff knows (never older rows after a change), and a failed or unreachable replica\'s reads go to the primary (docs/deploy.md, "Scaling")',
      ),
    DATABASE_READ_CHECK_MS: intSetting(1000, 50, 60_000).describe(
      "how often each read replica's reachability and replayed generation are checked (also at once after every catalog change)",
    ),
    DATABASE_READ_TIMEOUT_MS: intSetting(500, 50, 60_000).describe(
      'a read replica that takes longer to answer a read or a check counts as down until a check passes (a frozen replica fails no query); the read is run on the primary at once',
    ),
    REDIS_URL: optionalUrl
      .refine((v) => v === undefined || /^rediss?:\/\//.test(v), { message: 'must start with redis://' })
      .describe('`redis://host:6379`; unset = in-process cache and rate limits'),
    REDIS_SENTINELS: z
      .string()
      .optional()
      .describe(
        'Redis behind Sentinel: `host:port,host:port` of the sentinels; every Redis client follows the master the sentinels name, and REDIS_URL then gives only the database index and password. Set both REDIS_SENTINELS and REDIS_SENTINEL_NAME or neither',
      ),
    REDIS_SENTINEL_NAME: z.string().optional().describe("the master's name behind Sentinel (`sentinel monitor <name> ...`)"),
    REDIS_COMMAND_TIMEOUT_MS: intSetting(150, 10, 10_000).describe('a slower Redis command counts as a miss, never a wait'),
    CACHE_TTL_SECONDS: intSetting(300, 0, 86_400).describe('cached answer lifetime (0 = off)'),
    CACHE_GENERATION_POLL_MS: intSetting(500, 50, 3_600_000).describe(
      'database poll of the catalog generation (pub/sub is the fast path); bounds how soon a change shows without Redis',
    ),
    CACHE_LOCAL_MAX_ENTRIES: intSetting(2000, 0, 1_000_000).describe('in-process LRU size (entries)'),
    PAGE_ANCHOR_EVERY: intSetting(500, 2, 100_000).describe('deep-page anchors: every n-th sort key'),
    CACHE_KEY_PREFIX: z.string().max(50).default('media:').describe('Redis key and channel prefix'),
    FRONT_GENERATION_DIR: optionalUrl.meta({
      description:
        'where the bff writes the catalog generation link nginx keys its API cache on (`bff/src/cache/front-generation.ts`; docs/deploy.md, "API cache"); unset = not written',
      defaultText: 'unset (`npm start`: a temporary folder; compose: `/srv/catalog-generation`)',
    }),
    SEARCH_INDEX: z
      .enum(['on', 'off'])
      .default('on')
      .describe('in-process trigram search index per catalog generation; off = every search reads the database'),
    SEARCH_INDEX_MAX_ROWS: intSetting(500_000, 0, 10_000_000).describe(
      "the search index's row limit per content type: a bigger table is searched in the database instead (~30 MB of heap per 100,000 rows)",
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level'),
    SHUTDOWN_TIMEOUT_MS: intSetting(10_000, 0, 120_000).describe('how long SIGTERM waits for in-flight requests'),
    READ_DEADLINE_MS: intSetting(1800, 0, 60_000).describe(
      'a read (`GET /api/*`, `/readyz`) not answered by then gets 503: a database that accepts connections but never answers cannot hold requests',
    ),
    PURGE_WEBHOOK_URL: optionalUrl
      .refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), { message: 'must be an http:// or https:// URL' })
      .describe(
        "the purge hook for the durable purge outbox (`src/purge/worker.ts`): every takedown's and restore's POST `{ event, prefixes, urls }`, sent `PURGE_DELAY_MS` after it and retried (1 s, 2 s, ... 5 min) until it answers 2xx; the media services' own PURGE_WEBHOOK_URL is the fast, best-effort call; empty is off",
      ),
    PURGE_COMMAND: optionalUrl.describe(
      'the same as `PURGE_WEBHOOK_URL` as a shell command, with the URLs as `$@` and `PURGE_EVENT`; empty is off',
    ),
    PURGE_WORKER: z
      .enum(['on', 'off'])
      .default('on')
      .describe('off on a bff replica that should not deliver purges (the others deliver the shared outbox)'),
    PURGE_DELAY_MS: intSetting(12_000, 0, 3_600_000).describe(
      "how long after a takedown or restore its purge is first sent: past the media services' takedown poll (5 s) and nginx's thumbnail freshness (5 s), so the CDN's refetch can no longer get the file from the front door",
    ),
    PURGE_POLL_MS: intSetting(1000, 50, 60_000).describe('how often the purge worker looks for due purges'),
    ...metricsEnv,
    REPORT_HOLIDAYS: z
      .string()
      .optional()
      .transform(parsedBy(parseHolidays))
      .describe(
        'extra non-business days (`YYYY-MM-DD,...`) for report deadlines besides weekends: the deadlines the report form promises and those the operator CLI works to (the same list); a bad date stops the start',
      ),
    RATE_LIMIT_LOGIN_PER_ACCOUNT: intSetting(10, 1, 100_000).describe(
      'failed sign-ins per username per 15 minutes (`bff/src/routes/api/auth/limits.ts`): per address, per known browser (`login_device` cookie), and from unknown browsers together; past one a sign-in needs a proof of work (ALTCHA widget, ~1 s), not a wait (bff/README.md, "Sign-in limits")',
    ),
    LOGIN_HASH_QUEUE_MAX: intSetting(8, 1, 1000).describe(
      'password hashes (~0.4 s of scrypt each, 4 threads; `db/src/members/password.ts`) running or waiting per process, at most 2 per address; more answer 503 `busy` + `Retry-After: 1` at once',
    ),
    RATE_LIMIT_USERNAME_PER_MINUTE: intSetting(30, 1, 100_000).describe(
      '`GET /api/username-available` checks per address and minute (the join form checks a username as it is typed)',
    ),
    RATE_LIMIT_SEARCH_PER_MINUTE: intSetting(120, 1, 100_000).describe(
      'searches per address and minute that the cache could not answer (each counts and sorts every match: up to ~35 ms of CPU at 100,000 rows per type); cached answers never count',
    ),
    RATE_LIMIT_POSITION_PER_MINUTE: intSetting(30, 1, 100_000).describe(
      'playback-position writes per member and minute (a player saves every ~10 s)',
    ),
    SITE_NAME: siteNameSetting(
      "the site's name in mail (subjects, signature); nginx writes the same name into the header and page titles (1-60 letters, digits, spaces or . , ' & ! - there)",
    ),
    SITE_URL: z
      .string()
      .trim()
      .default('http://localhost:8080')
      .refine((v) => /^https?:\/\/[^\s/?#]+$/.test(v.replace(/\/$/, '')), {
        message: "must be the site's origin, such as https://example.com (no path)",
      })
      .transform((v) => v.replace(/\/$/, ''))
      .meta({
        description:
          "the address every link in a mail starts with (password reset, e-mail confirmation), and the operator console's passkey relying party (its host is the WebAuthn rpID, it the expected origin), never taken from a request's Host header (left on a loopback address outside production: the console's passkeys follow the Host header, for `npm start`); production requires an `https://` one",
        defaultText: "`http://localhost:8080` (`npm start`: the started site's address)",
        production: 'required (https)',
      }),
    ...mailConfigShape,
    ...providerConfigShape,
    ...securityConfigShape,
  })
  .superRefine((config, ctx) => {
    const ha = redisHaProblem(config);
    if (ha) ctx.addIssue({ code: 'custom', path: [ha.path], message: ha.message });
    // Spelled any way ("Production", " production"), NODE_ENV arrives here lower-cased.
    if (config.NODE_ENV !== 'production') return;
    refuseLocalSecurityInProduction(config, ctx);
    refuseSimulatorInProduction(config, ctx);
    refuseMailProblemsInProduction(config, ctx);
    if (!config.SITE_URL.startsWith('https://') || /\/\/(?:localhost|127\.|\[::1\])/.test(config.SITE_URL)) {
      ctx.addIssue({ code: 'custom', path: ['SITE_URL'], message: 'set the https:// address members use (links in mail start with it)' });
    }
    // An edge URL's secret is all that makes it unforgeable (nginx secure_link md5).
    const edge = config.EDGE_URL_SECRET ? (placeholderReason(config.EDGE_URL_SECRET) ?? weakKeyReason(config.EDGE_URL_SECRET)) : undefined;
    if (edge) ctx.addIssue({ code: 'custom', path: ['EDGE_URL_SECRET'], message: `${edge} (e.g. openssl rand -hex 32)` });
    const password = urlPassword(config.DATABASE_URL);
    const reason = password ? placeholderReason(password) : undefined;
    if (reason)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: `the password ${reason}; set MYSQL_PASSWORD (compose) or the URL's password to your own`,
      });
  })
  .transform(({ DATA_DIR, DATABASE_URL, INGEST_ROOT, ...rest }) => {
    const defaults = embeddedDefaults({ DATA_DIR, DATABASE_URL, INGEST_ROOT });
    return {
      ...rest,
      DATABASE_URL: defaults.databaseUrl,
      INGEST_ROOT: defaults.ingestRoot,
      mail: mailSettings(rest, defaults.dataDir),
    };
  });

export type BffConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads the environment once; a bad value throws one error listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): BffConfig {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
  throw new ConfigError(`invalid bff configuration:\n${problems.join('\n')}`);
}
