import type { RedisOptions } from 'ioredis';

/**
 * Redis behind Sentinel: REDIS_SENTINELS ("host:port,host:port", IPv6 as [addr]:port) and
 * REDIS_SENTINEL_NAME (the monitored master's name, `sentinel monitor <name> ...`). When set, every
 * ioredis client the services make asks the sentinels for the current master (and again after each
 * disconnect), so a failover moves the clients to the promoted replica; REDIS_URL still gives the
 * database index, user and password (its host and port are not used).
 */
export interface RedisHaSettings {
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
}

export interface SentinelAddress {
  host: string;
  port: number;
}

/** The sentinel list, or a message saying what is wrong with it. */
export function parseSentinels(value: string | undefined): SentinelAddress[] | string {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: SentinelAddress[] = [];
  for (const entry of entries) {
    const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(entry);
    const port = m ? Number(m[3]) : NaN;
    if (!m || port < 1 || port > 65535) return `"${entry}" is not host:port`;
    out.push({ host: (m[1] ?? m[2])!, port });
  }
  return out;
}

/** A zod-style check for both variables together: the problem, or undefined. */
export function redisHaProblem(settings: RedisHaSettings): { path: keyof RedisHaSettings; message: string } | undefined {
  const sentinels = parseSentinels(settings.REDIS_SENTINELS);
  if (typeof sentinels === 'string') return { path: 'REDIS_SENTINELS', message: sentinels };
  if (sentinels.length > 0 && !settings.REDIS_SENTINEL_NAME)
    return { path: 'REDIS_SENTINEL_NAME', message: 'required with REDIS_SENTINELS (the name in `sentinel monitor <name> ...`)' };
  if (sentinels.length === 0 && settings.REDIS_SENTINEL_NAME)
    return { path: 'REDIS_SENTINELS', message: 'required with REDIS_SENTINEL_NAME' };
  return undefined;
}

/**
 * The ioredis options that make a client follow Sentinel (empty without REDIS_SENTINELS); spread
 * them into the client's own options. `oneShot`: a client that tries once (no waiting for sentinels).
 */
export function sentinelOptions(settings: RedisHaSettings, options: { oneShot?: boolean } = {}): Partial<RedisOptions> {
  const sentinels = parseSentinels(settings.REDIS_SENTINELS);
  if (typeof sentinels === 'string') throw new Error(`REDIS_SENTINELS: ${sentinels}`);
  if (sentinels.length === 0) return {};
  if (!settings.REDIS_SENTINEL_NAME) throw new Error('REDIS_SENTINEL_NAME is required with REDIS_SENTINELS');
  return {
    sentinels,
    name: settings.REDIS_SENTINEL_NAME,
    role: 'master',
    // Subscribe to the sentinels' +switch-master: a failover moves the client as soon as it is decided,
    // not only when the old master's connection breaks.
    failoverDetector: true,
    sentinelCommandTimeout: 1000,
    sentinelRetryStrategy: options.oneShot ? () => null : (times: number) => Math.min(100 * times, 1000),
  };
}
