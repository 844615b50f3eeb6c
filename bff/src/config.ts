import { z } from 'zod';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { redisHaProblem } from '@media-site/db';
import { parseHolidays } from '@media-site/db/reports';
import { placeholderReason, weakKeyReason } from '@media-site/contracts/secret-policy';
import { providerConfigShape, refuseSimulatorInProduction } from './provider/config';
import { refuseLocalSecurityInProduction, securityConfigShape } from './security/config';
import { mailConfigShape, mailSettings, refuseMailProblemsInProduction } from './mail/config';

// DATA_DIR / DATABASE_URL: the embedded defaults every process shares (contracts/embedded-defaults).

const intFrom = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);
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
    BFF_PORT: intFrom(3001, 0, 65535),
    BFF_HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().optional(),
    DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^(?:mysql2?|mariadb):\/\/|^sqlite:/.test(v), {
      message: 'must start with mysql://, mariadb:// or sqlite:',
    }),
    DATABASE_POOL_MAX: intFrom(10, 1, 200),
    /** Read replicas for catalog reads, comma-separated MySQL/MariaDB URLs; unset = the primary answers everything. */
    DATABASE_READ_URL: optionalUrl.refine((v) => v === undefined || v.split(',').every((u) => !u.trim() || /^(?:mysql2?|mariadb):\/\//.test(u.trim())), {
      message: 'must be one or more comma-separated mysql:// or mariadb:// URLs',
    }),
    /** How often each read replica's reachability and replayed generation are checked. */
    DATABASE_READ_CHECK_MS: intFrom(1000, 50, 60_000),
    REDIS_URL: optionalUrl.refine((v) => v === undefined || /^rediss?:\/\//.test(v), { message: 'must start with redis://' }),
    /** Redis behind Sentinel: sentinel host:port list and the master's name (REDIS_URL then gives db and password). */
    REDIS_SENTINELS: z.string().optional(),
    REDIS_SENTINEL_NAME: z.string().optional(),
    REDIS_COMMAND_TIMEOUT_MS: intFrom(150, 10, 10_000),
    CACHE_TTL_SECONDS: intFrom(300, 0, 86_400),
    CACHE_GENERATION_POLL_MS: intFrom(500, 50, 3_600_000),
    CACHE_LOCAL_MAX_ENTRIES: intFrom(2000, 0, 1_000_000),
    PAGE_ANCHOR_EVERY: intFrom(500, 2, 100_000),
    CACHE_KEY_PREFIX: z.string().max(50).default('media:'),
    /** Where the catalog generation is written for nginx's API cache key (cache/front-generation.ts); unset = not written. */
    FRONT_GENERATION_DIR: optionalUrl,
    /** In-process search index per catalog generation; off = every search reads the database. */
    SEARCH_INDEX: z.enum(['on', 'off']).default('on'),
    /** Per content type: a bigger table is searched in the database instead (~30 MB of heap per 100,000 rows). */
    SEARCH_INDEX_MAX_ROWS: intFrom(500_000, 0, 10_000_000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 0, 120_000),
    READ_DEADLINE_MS: intFrom(1800, 0, 60_000),
    /** Prometheus /metrics on its own port; unset = off, 0 = any free port. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** Days the report deadlines skip besides weekends (YYYY-MM-DD,...): the same list the operator CLI reads. */
    REPORT_HOLIDAYS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        try {
          return parseHolidays(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
    /** Sign-in attempts per username per 15 minutes (bff/src/routes/api/auth/limits.ts). */
    RATE_LIMIT_LOGIN_PER_ACCOUNT: intFrom(10, 1, 100_000),
    /** Password hashes (~0.4 s of scrypt each, 4 threads) running or waiting in this process; more answer 503 (db/src/members/password.ts). */
    LOGIN_HASH_QUEUE_MAX: intFrom(8, 1, 1000),
    /** Username checks (`GET /api/username-available`) per address and minute: the join form asks as the visitor types. */
    RATE_LIMIT_USERNAME_PER_MINUTE: intFrom(30, 1, 100_000),
    /** Playback position writes per member and minute (a player saves every ~10 s). */
    RATE_LIMIT_POSITION_PER_MINUTE: intFrom(30, 1, 100_000),
    /** The site's name in mail (subjects, signature). */
    SITE_NAME: z.string().trim().min(1).max(60).default('Media Site'),
    /**
     * The address every link in a mail starts with (password reset, e-mail confirmation), never taken
     * from a request's Host header. Production requires an https:// one.
     */
    SITE_URL: z
      .string()
      .trim()
      .default('http://localhost:8080')
      .refine((v) => /^https?:\/\/[^\s/?#]+$/.test(v.replace(/\/$/, '')), { message: 'must be the site\'s origin, such as https://example.com (no path)' })
      .transform((v) => v.replace(/\/$/, '')),
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
    if (reason) ctx.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: `the password ${reason}; set MYSQL_PASSWORD (compose) or the URL's password to your own` });
  })
  .transform(({ DATA_DIR, DATABASE_URL, ...rest }) => {
    const defaults = embeddedDefaults({ DATA_DIR, DATABASE_URL });
    return { ...rest, DATABASE_URL: defaults.databaseUrl, mail: mailSettings(rest, defaults.dataDir) };
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
