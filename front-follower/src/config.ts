import { z } from 'zod';
import { embeddedDefaults } from '@media-site/contracts/embedded-defaults';
import { redisHaProblem } from '@media-site/db';
import { intSetting } from '@media-site/bff/config-schema';
import { metricsEnv } from '@media-site/contracts/metrics-env';

const optional = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * The generation follower's environment (a small process beside each nginx host, `front-follower.ts`).
 * It reads the catalog generation and writes nginx's link; it needs no secret beyond read access to
 * the catalog's one-row generation table and the Redis channel.
 */
export const followerSchema = z
  .object({
    DATA_DIR: z.string().optional().meta({ description: 'as the bff (the embedded SQLite catalog)', defaultText: '`<repo>/.data`' }),
    DATABASE_URL: optional
      .refine((v) => v === undefined || /^(?:mysql2?|mariadb):\/\/|^sqlite:/.test(v), {
        message: 'must start with mysql://, mariadb:// or sqlite:',
      })
      .meta({
        description:
          'the catalog database, read once a poll (a read replica or a read-only user will do: it reads the generation row only)',
        defaultText: '`sqlite:$DATA_DIR/catalog.sqlite`',
      }),
    REDIS_URL: optional
      .refine((v) => v === undefined || /^rediss?:\/\//.test(v), { message: 'must start with redis://' })
      .describe('the Redis the bffs announce generations on (the fast path); unset = the database poll alone'),
    REDIS_SENTINELS: z.string().optional().describe('as the bff: `host:port,...` of the sentinels'),
    REDIS_SENTINEL_NAME: z.string().optional().describe("as the bff: the master's name behind Sentinel"),
    CACHE_KEY_PREFIX: z.string().max(50).default('media:').describe("the bffs' Redis key and channel prefix"),
    FRONT_GENERATION_DIR: z
      .string()
      .min(1)
      .describe("the folder nginx keys its API cache on (this host's own; nginx's CATALOG_GENERATION_DIR)"),
    FOLLOW_POLL_MS: intSetting(500, 50, 60_000).describe(
      'database poll of the generation when an announcement is missed (Redis down, a reconnect)',
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level'),
    ...metricsEnv,
  })
  .superRefine((env, ctx) => {
    const problem = redisHaProblem(env);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  })
  .transform(({ DATA_DIR, DATABASE_URL, ...rest }) => ({
    ...rest,
    DATABASE_URL: embeddedDefaults({ DATA_DIR, DATABASE_URL }).databaseUrl,
  }));

export type FollowerConfig = z.infer<typeof followerSchema>;

/** The follower's settings, or an error naming every problem. */
export function loadFollowerConfig(env: NodeJS.ProcessEnv = process.env): FollowerConfig {
  const parsed = followerSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new Error(
    `invalid front-follower configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`).join('\n')}`,
  );
}
