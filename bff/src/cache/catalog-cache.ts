import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { readGeneration } from '@media-site/db';
import { releaseDue } from '@media-site/db/content';
import { LRUCache } from 'lru-cache';
import { announceGeneration, catalogChanged, generationChannel } from './catalog-changed';

/** A JSON answer serialized once; hits send these bytes as they are. */
export interface CachedBody {
  body: Buffer;
  etag: string;
  /** The catalog generation it was read under (undefined when caching is off). */
  generation?: number;
}

export interface CacheStats {
  localHits: number;
  redisHits: number;
  misses: number;
  coalesced: number;
  redisErrors: number;
}

export interface CatalogCacheOptions {
  knex: Knex;
  /** Command connection; absent means the in-process tier only. */
  redis?: Redis | undefined;
  /** A second connection for pub/sub (a subscribed connection cannot run commands). */
  subscriber?: Redis | undefined;
  /** 0 turns caching off: every request reads the database. */
  ttlSeconds: number;
  pollMs: number;
  localMaxEntries: number;
  keyPrefix: string;
  logger: Logger;
}

function entryOf(body: Buffer, generation?: number): CachedBody {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag, generation };
}

// Request paths share the LRU with answer keys; this prefix keeps the two apart.
const PATH_KEY = 'path:';

/**
 * Two tiers: an LRU inside the process, then Redis shared by every instance. Keys carry the catalog
 * generation, so a bump makes every cached listing unreachable at once; the TTL only bounds memory.
 */
export class CatalogCache {
  readonly stats: CacheStats = { localHits: 0, redisHits: 0, misses: 0, coalesced: 0, redisErrors: 0 };
  private known: number | undefined;
  /** Absent when caching is off (TTL 0) or the process tier has no room (0 entries). */
  private readonly local: LRUCache<string, CachedBody> | undefined;
  private readonly inflight = new Map<string, Promise<CachedBody>>();
  private generationRead: Promise<number> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private readonly generationListeners: Array<(generation: number) => void> = [];
  private readonly ttlMs: number;

  constructor(private readonly options: CatalogCacheOptions) {
    this.ttlMs = options.ttlSeconds * 1000;
    // lru-cache drops an entry past its TTL when it is next read; the TTL only bounds memory.
    this.local =
      this.ttlMs > 0 && options.localMaxEntries > 0 ? new LRUCache({ max: options.localMaxEntries, ttl: this.ttlMs }) : undefined;
  }

  get currentGeneration(): number | undefined {
    return this.known;
  }

  /** The generation to key derived data with; reads the database only when it is not known yet. */
  async generation(): Promise<number> {
    return this.known ?? (await this.refreshGeneration());
  }

  get redisStatus(): string {
    return this.options.redis?.status ?? 'not configured';
  }

  /** Reads the generation once and starts following it; a database that is down now is tolerated. */
  async start(): Promise<void> {
    const { subscriber, pollMs, logger } = this.options;
    await this.refreshGeneration().catch((err: unknown) => logger.warn({ err }, 'catalog generation unreadable at start'));
    this.pollTimer = setInterval(() => {
      this.refreshGeneration().catch(() => undefined);
    }, pollMs);
    this.pollTimer.unref();
    if (subscriber) {
      const channel = generationChannel(this.options.keyPrefix);
      subscriber.on('message', (ch: string, message: string) => {
        if (ch === channel) this.announced(Number(message));
      });
      // Announcements sent while disconnected are lost; re-read the truth on every (re)connect.
      subscriber.on('ready', () => {
        this.refreshGeneration().catch(() => undefined);
      });
      subscriber.subscribe(channel).catch((err: unknown) => logger.warn({ err }, 'generation subscribe failed'));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** The cached answer for `key`, or `load()` serialized and stored; concurrent misses share one load. */
  async get(key: string, load: () => Promise<unknown>): Promise<CachedBody> {
    if (this.ttlMs === 0) {
      this.stats.misses++;
      return entryOf(Buffer.from(JSON.stringify(await load())));
    }
    const generation = this.known ?? (await this.refreshGeneration());
    const fullKey = `${generation}:${key}`;
    const hit = this.local?.get(fullKey);
    if (hit !== undefined) {
      this.stats.localHits++;
      return hit;
    }
    const pending = this.inflight.get(fullKey);
    if (pending) {
      this.stats.coalesced++;
      return pending;
    }
    const filling = this.fill(generation, fullKey, load).finally(() => this.inflight.delete(fullKey));
    this.inflight.set(fullKey, filling);
    return filling;
  }

  /** The answer last sent for this exact request path, so a repeat skips routing and validation. */
  peekPath(path: string): CachedBody | undefined {
    const hit = this.local?.get(PATH_KEY + path);
    if (hit === undefined) return undefined;
    this.stats.localHits++;
    return hit;
  }

  rememberPath(path: string, answer: CachedBody): void {
    // An answer read under an older generation must not outlive the change that replaced it.
    if (answer.generation === undefined || answer.generation !== this.known) return;
    this.local?.set(PATH_KEY + path, answer);
  }

  /** Bump the catalog generation in the database and announce it; this instance sees it at once. */
  async catalogChanged(): Promise<number> {
    const { knex, redis, keyPrefix } = this.options;
    const generation = await catalogChanged({ knex, redis, keyPrefix });
    this.setGeneration(generation);
    return generation;
  }

  /**
   * Bumps the generation for the scheduled releases due by `now`, unless another instance did
   * already (db releaseDue), and announces it. Returns the new generation, or undefined.
   */
  async releaseDue(now: number): Promise<number | undefined> {
    const { knex, redis, keyPrefix } = this.options;
    const generation = await releaseDue(knex, now);
    if (generation !== undefined) {
      await announceGeneration(redis, keyPrefix, generation);
      this.setGeneration(generation);
    }
    return generation;
  }

  async refreshGeneration(): Promise<number> {
    this.generationRead ??= readGeneration(this.options.knex)
      .then((generation) => {
        this.setGeneration(generation);
        return generation;
      })
      .finally(() => {
        this.generationRead = undefined;
      });
    return this.generationRead;
  }

  private announced(generation: number): void {
    // Only forward: the database stays the authority and the poll corrects anything else.
    if (Number.isSafeInteger(generation) && generation > (this.known ?? 0)) this.setGeneration(generation);
  }

  private setGeneration(generation: number): void {
    if (generation === this.known) return;
    this.known = generation;
    this.local?.clear();
    for (const listener of this.generationListeners) listener(generation);
  }

  /** Called with each new generation this instance learns of (at start, then every change). */
  onGenerationChange(listener: (generation: number) => void): void {
    this.generationListeners.push(listener);
  }

  private async fill(generation: number, fullKey: string, load: () => Promise<unknown>): Promise<CachedBody> {
    const redisKey = `${this.options.keyPrefix}c:${fullKey}`;
    const shared = await this.redisGet(redisKey);
    let entry: CachedBody;
    if (shared) {
      this.stats.redisHits++;
      entry = entryOf(shared, generation);
    } else {
      this.stats.misses++;
      entry = entryOf(Buffer.from(JSON.stringify(await load())), generation);
      this.redisSet(redisKey, entry.body);
    }
    if (generation === this.known) this.local?.set(fullKey, entry);
    return entry;
  }

  private async redisGet(key: string): Promise<Buffer | undefined> {
    const { redis } = this.options;
    if (!redis || redis.status !== 'ready') return undefined;
    try {
      return (await redis.getBuffer(key)) ?? undefined;
    } catch {
      this.stats.redisErrors++;
      return undefined;
    }
  }

  private redisSet(key: string, body: Buffer): void {
    const { redis } = this.options;
    if (!redis || redis.status !== 'ready') return;
    redis.set(key, body, 'EX', this.options.ttlSeconds).catch(() => {
      this.stats.redisErrors++;
    });
  }
}
