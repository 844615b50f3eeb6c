import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { waitFor } from './redis-server';

/** Why a Sentinel test cannot run here, or undefined; REQUIRE_SERVICES=1 makes it an error. */
export function sentinelMissing(): string | undefined {
  for (const bin of ['redis-server', 'redis-sentinel']) {
    if (spawnSync('sh', ['-c', `command -v ${bin}`]).status !== 0) {
      const reason = `${bin} is not installed (apt-get install redis-server redis-sentinel)`;
      if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
      return reason;
    }
  }
  return undefined;
}

export interface SentinelSetup {
  /** The monitored master's name. */
  name: string;
  /** REDIS_SENTINELS for the services. */
  sentinels: string;
  /** Port of the master the sentinels currently name. */
  masterPort(): Promise<number>;
  /** A plain client of the redis-server on `port`. */
  client(port: number): Redis;
  /** SIGKILL the redis-server on `port`. */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A primary redis-server, one replica and three sentinels (quorum 2) on the given ports, in a temp
 * folder. Sentinel marks the master down after `downAfterMs` without an answer.
 */
export async function startSentinelSetup(
  ports: { primary: number; replica: number; sentinels: number[] },
  downAfterMs = 1000,
): Promise<SentinelSetup> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-sentinel-'));
  const name = 'site';
  const children = new Map<number, ChildProcess>();
  const clients: Redis[] = [];
  const server = (port: number, extra: string[]) => {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra],
      { stdio: 'ignore' },
    );
    children.set(port, child);
  };
  const client = (port: number) => {
    const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  };
  const answers = async (port: number) => {
    const c = client(port);
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      c.disconnect();
    }
  };
  try {
    server(ports.primary, []);
    await waitFor(() => answers(ports.primary), 'the primary redis-server');
    server(ports.replica, ['--replicaof', '127.0.0.1', String(ports.primary)]);
    await waitFor(async () => {
      const c = client(ports.replica);
      try {
        await c.connect();
        return /master_link_status:up/.test(await c.info('replication'));
      } catch {
        return false;
      } finally {
        c.disconnect();
      }
    }, 'the replica to sync');
    for (const port of ports.sentinels) {
      const conf = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${ports.primary} 2`,
          `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
          `sentinel failover-timeout ${name} 10000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      const child = spawn('redis-sentinel', [conf], { stdio: 'ignore' });
      children.set(port, child);
    }
    for (const port of ports.sentinels) {
      await waitFor(
        async () => {
          const c = client(port);
          try {
            await c.connect();
            // Each sentinel has found the replica and the other sentinels (a failover needs both).
            const master = (await c.call('SENTINEL', 'MASTER', name)) as string[];
            const field = (key: string) => Number(master[master.indexOf(key) + 1]);
            return field('num-slaves') >= 1 && field('num-other-sentinels') >= ports.sentinels.length - 1;
          } catch {
            return false;
          } finally {
            c.disconnect();
          }
        },
        `sentinel ${port} to see the replica and its peers`,
        20_000,
      );
    }
  } catch (err) {
    for (const child of children.values()) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const kill = (port: number) =>
    new Promise<void>((resolve) => {
      const child = children.get(port);
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return {
    name,
    sentinels: ports.sentinels.map((p) => `127.0.0.1:${p}`).join(','),
    async masterPort() {
      for (const port of ports.sentinels) {
        const c = client(port);
        try {
          await c.connect();
          const [, p] = (await c.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [string, string];
          return Number(p);
        } catch {
          // next sentinel
        } finally {
          c.disconnect();
        }
      }
      throw new Error('no sentinel answered');
    },
    client,
    kill,
    async stop() {
      for (const c of clients) c.disconnect();
      for (const port of children.keys()) await kill(port);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
