import type { Knex } from 'knex';
import { createKnex, type KnexOptions } from './knex';
import { readGeneration } from './generation';

/**
 * Catalog reads from read replicas (DATABASE_READ_URL), everything else from the primary.
 *
 * A replica serves a read only while it is
 *  - reachable: its last check answered and no query since failed to reach it, and
 *  - fresh: the catalog generation it has replayed is at least the one the caller knows
 *    (`minGeneration`, the bff's catalog cache: bumped by every catalog change and takedown, and
 *    learnt at once through Redis). Replication applies commits in order, so a replica that has the
 *    bump has every change before it; a lagging one is skipped until its check sees it caught up,
 *    so a change is never answered (and cached under its new generation) from older rows.
 * Otherwise the primary answers. A read that fails on a replica is run again on the primary (a
 * replica that died between checks costs one retry, never an error), and a replica that could not
 * be reached is taken out until a check reaches it again. A replica that accepts and then never
 * answers (frozen, SIGSTOP, a partition that drops packets) fails no query: so a read, and a check,
 * that takes longer than `readTimeoutMs` counts as unreachable too. The read is run on the primary
 * at once (it costs that one deadline, never an error) and the abandoned query finishes or fails on
 * its own connection.
 */
export interface ReadPoolOptions {
  /** The generation a replica must have replayed; undefined (not known yet) sends reads to the primary. */
  minGeneration: () => number | undefined;
  /** How often each replica's reachability and generation are checked (ms). */
  checkMs?: number;
  /** Pool size per replica. */
  poolMax?: number;
  /** How long a read waits for a replica connection before trying the primary (ms). */
  acquireTimeoutMs?: number;
  /** How long a replica may take to answer a read or a check before it counts as down (ms). */
  readTimeoutMs?: number;
  log?: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void;
  knexLog?: KnexOptions['log'];
}

export interface ReplicaState {
  /** host:port/database, no credentials. */
  name: string;
  up: boolean;
  /** The generation its last check read (undefined before the first). */
  generation: number | undefined;
  reads: number;
  failures: number;
}

export interface ReadPool {
  /** A Knex for read-only catalog queries: each query builder goes to a fresh replica or the primary. */
  readonly knex: Knex;
  readonly replicas: readonly ReplicaState[];
  /** Reads the primary answered (no replica fit, or a replica's read failed). */
  readonly primaryReads: () => number;
  /** Checks every replica now (also done every checkMs). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** DATABASE_READ_URL: one URL or several, comma-separated (blank entries ignored). */
export function parseReadUrls(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function safeName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 3306}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

/** A replica read or check that passed its deadline (`readTimeoutMs`). */
export class ReplicaTimeoutError extends Error {
  override readonly name = 'ReplicaTimeoutError';
}

/** `work`, or a ReplicaTimeoutError once `ms` pass; the work itself is left to finish or fail. */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReplicaTimeoutError(`${what} did not answer within ${ms} ms`)), ms);
  });
  // A late failure of the abandoned work is not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/** Errors that say the server is not there (as opposed to an SQL error the primary would repeat). */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; fatal?: unknown } | null;
  if (!e) return false;
  if (e.name === 'KnexTimeoutError' || e.name === 'ReplicaTimeoutError' || e.fatal === true) return true;
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'PROTOCOL_CONNECTION_LOST'].includes(
    String(e.code),
  );
}

interface Replica {
  state: ReplicaState;
  knex: Knex;
}

type Runnable = { client: Knex.Client; then: (...args: unknown[]) => Promise<unknown> };

function isRunnable(value: unknown): value is Runnable {
  return typeof value === 'object' && value !== null && 'client' in value && typeof (value as { then?: unknown }).then === 'function';
}

export function createReadPool(primary: Knex, urls: readonly string[], options: ReadPoolOptions): ReadPool {
  const log = options.log ?? (() => undefined);
  const readTimeoutMs = options.readTimeoutMs ?? 500;
  const replicas: Replica[] = urls.map((url) => ({
    knex: createKnex(url, { poolMax: options.poolMax ?? 10, acquireTimeoutMs: options.acquireTimeoutMs ?? 300, log: options.knexLog }),
    state: { name: safeName(url), up: false, generation: undefined, reads: 0, failures: 0 },
  }));
  let primaryReads = 0;
  let next = 0;

  function setUp(replica: Replica, up: boolean, err?: unknown): void {
    if (replica.state.up === up) return;
    replica.state.up = up;
    if (up) log('info', { replica: replica.state.name, generation: replica.state.generation }, 'read replica in use');
    else
      log(
        'warn',
        { replica: replica.state.name, err: (err as Error | undefined)?.message },
        'read replica unreachable: reads go elsewhere',
      );
  }

  function pick(): Replica | undefined {
    const need = options.minGeneration();
    if (need === undefined) return undefined;
    for (let i = 0; i < replicas.length; i++) {
      const replica = replicas[(next + i) % replicas.length]!;
      if (replica.state.up && replica.state.generation !== undefined && replica.state.generation >= need) {
        next = (next + i + 1) % replicas.length;
        return replica;
      }
    }
    return undefined;
  }

  /** The query runs on the replica; if that fails, the same query runs on the primary. */
  function routed<T>(value: T, replica: Replica | undefined): T {
    if (!isRunnable(value)) return value;
    const builder = value;
    builder.then = (onFulfilled?: unknown, onRejected?: unknown) => {
      const run = (client: Knex.Client) => (client as unknown as { runner(b: unknown): { run(): Promise<unknown> } }).runner(builder).run();
      let result: Promise<unknown>;
      if (!replica) {
        primaryReads++;
        result = run(primary.client);
      } else {
        replica.state.reads++;
        result = withDeadline(run(replica.knex.client), readTimeoutMs, replica.state.name).catch((err: unknown) => {
          replica.state.failures++;
          if (isUnreachable(err)) setUp(replica, false, err);
          primaryReads++;
          return run(primary.client);
        });
      }
      return result.then(onFulfilled as never, onRejected as never);
    };
    return value;
  }

  const target = function routedKnex() {} as unknown as Knex;
  const knex = new Proxy(target, {
    apply(_t, _this, args: unknown[]) {
      const replica = pick();
      const instance = replica?.knex ?? primary;
      return routed((instance as unknown as (...a: unknown[]) => unknown)(...args), replica);
    },
    get(_t, prop) {
      // Builders made from the root (knex.select(), knex.raw()) are routed like knex(table).
      const replica = pick();
      const instance = (replica?.knex ?? primary) as unknown as Record<PropertyKey, unknown>;
      const value = instance[prop];
      if (typeof value !== 'function' || prop === 'client') return value;
      return (...args: unknown[]) => routed((value as (...a: unknown[]) => unknown).apply(instance, args), replica);
    },
  });

  async function checkOne(replica: Replica): Promise<void> {
    try {
      replica.state.generation = await withDeadline(readGeneration(replica.knex), readTimeoutMs, replica.state.name);
      setUp(replica, true);
    } catch (err) {
      setUp(replica, false, err);
    }
  }
  const check = async () => {
    await Promise.all(replicas.map(checkOne));
  };
  const timer = setInterval(() => void check(), options.checkMs ?? 1000);
  timer.unref();
  void check();

  return {
    knex,
    replicas: replicas.map((r) => r.state),
    primaryReads: () => primaryReads,
    check,
    async close() {
      clearInterval(timer);
      await Promise.all(replicas.map((r) => r.knex.destroy()));
    },
  };
}
