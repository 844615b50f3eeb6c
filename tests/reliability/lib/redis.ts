import { Redis } from 'ioredis';
import { freePort } from '../../../scripts/lib/process';
import { startRedisServer } from '../../../bff/src/test/redis-server';

export interface OwnRedis {
  url: string;
  /** SIGKILL: the crash case, no goodbye to clients. */
  kill(): Promise<void>;
  /** A fresh, empty server on the same port. */
  restart(): Promise<void>;
  keyCount(): Promise<number>;
}

/** A redis-server of this test's own (never the shared one on 6379), killed and restarted at will. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let server = await startRedisServer(port);
  return {
    url: server.url,
    kill: () => server.stop(),
    async restart() {
      server = await startRedisServer(port);
    },
    async keyCount() {
      const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return await client.dbsize();
      } catch {
        return -1;
      } finally {
        client.disconnect();
      }
    },
  };
}
