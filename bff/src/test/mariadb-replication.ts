import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from '@media-site/contracts/loopback-port';
import { createKnex } from '@media-site/db';
import type { Knex } from 'knex';
import { waitFor } from './redis-server';

/** Why a replication test cannot run here (no mariadbd / mariadb-install-db), or undefined; REQUIRE_SERVICES=1 makes it an error. */
export function mariadbMissing(): string | undefined {
  for (const bin of ['mariadbd', 'mariadb-install-db']) {
    if (spawnSync('sh', ['-c', `command -v ${bin} || test -x /usr/sbin/${bin}`]).status !== 0) {
      const reason = `${bin} is not installed (apt-get install mariadb-server)`;
      if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
      return reason;
    }
  }
  return undefined;
}

function mariadbd(): string {
  const found = spawnSync('sh', ['-c', 'command -v mariadbd || echo /usr/sbin/mariadbd']).stdout.toString().trim();
  return found || '/usr/sbin/mariadbd';
}

export interface MariadbServer {
  port: number;
  /** mysql://root@127.0.0.1:port/<database> */
  url(database?: string): string;
  /** An admin connection (no database). */
  admin: Knex;
  kill(): Promise<void>;
  /** SIGSTOP (the server hangs: connections stay open, nothing answers) or SIGCONT. */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
}

export interface ReplicatedPair {
  primary: MariadbServer;
  replica: MariadbServer;
  /** Resolves when the replica has applied everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

async function startServer(
  dir: string,
  datadir: string,
  port: number,
  serverId: number,
  binlog: boolean,
): Promise<{ child: ChildProcess; server: MariadbServer }> {
  const args = [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${join(dir, `s${serverId}.sock`)}`,
    `--pid-file=${join(dir, `s${serverId}.pid`)}`,
    `--log-error=${join(dir, `s${serverId}.err`)}`,
    `--server-id=${serverId}`,
    '--skip-name-resolve',
    '--innodb-buffer-pool-size=32M',
    // No native AIO: many test servers at once can exhaust the machine's aio contexts (fs.aio-max-nr).
    '--innodb-use-native-aio=0',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_unicode_ci',
    ...(binlog ? [`--log-bin=${join(datadir, 'bin')}`, '--binlog-format=ROW'] : []),
  ];
  if (process.getuid?.() === 0) args.splice(1, 0, '--user=root');
  const child = spawn(mariadbd(), args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = (database = '') => `mysql://root@127.0.0.1:${port}/${database}`;
  // Quiet: every refused connection while the server starts would print a warning.
  const quiet = () => undefined;
  const admin = createKnex(url(), { acquireTimeoutMs: 3000, log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet } });
  await waitFor(
    async () => {
      if (exited) {
        // The folder is removed after the test: the log's last lines go into the error itself.
        const log = await readFile(join(dir, `s${serverId}.err`), 'utf8').catch(() => '');
        throw new Error(`mariadbd on ${port} exited:\n${log.split('\n').slice(-15).join('\n')}`);
      }
      return admin.raw('select 1').then(
        () => true,
        () => false,
      );
    },
    `mariadbd on port ${port}`,
    30_000,
  ).catch(async (err: unknown) => {
    await admin.destroy().catch(() => undefined);
    child.kill('SIGKILL');
    throw err;
  });
  return {
    child,
    server: {
      port,
      url,
      admin,
      kill: () =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
      signal: (signal) => {
        child.kill(signal);
      },
    },
  };
}

/** A server on a free port; another process may take the port between the check and mariadbd's bind, so a taken one is tried again on another. */
async function startOnFreePort(dir: string, datadir: string, serverId: number, binlog: boolean) {
  for (let attempt = 1; ; attempt += 1) {
    // Below Linux's ephemeral range: a fixed port there (46310) was once held by another file's
    // outgoing connection, and mariadbd failed with "Address already in use".
    const port = await freeLoopbackPort();
    try {
      return await startServer(dir, datadir, port, serverId, binlog);
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/.test(err instanceof Error ? err.message : String(err))) throw err;
    }
  }
}

/**
 * A MariaDB primary (binlog) and a replica following it by GTID, each a `mariadbd` of its own in a
 * temp folder on free ports; the machine's shared server is not touched. One
 * mariadb-install-db, copied, so both start from the same system tables.
 */
export async function startReplicatedPair(): Promise<ReplicatedPair> {
  const dir = await mkdtemp(join(tmpdir(), 'mariadb-pair-'));
  const install = spawnSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${join(dir, 'primary')}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr || install.stdout}`);
  await cp(join(dir, 'primary'), join(dir, 'replica'), { recursive: true });
  const started: ChildProcess[] = [];
  const servers: MariadbServer[] = [];
  try {
    const primary = await startOnFreePort(dir, join(dir, 'primary'), 1, true);
    started.push(primary.child);
    servers.push(primary.server);
    const replica = await startOnFreePort(dir, join(dir, 'replica'), 2, false);
    started.push(replica.child);
    servers.push(replica.server);
    await replica.server.admin.raw(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.server.port}, MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1`,
    );
    await replica.server.admin.raw('START SLAVE');
    const pair: ReplicatedPair = {
      primary: primary.server,
      replica: replica.server,
      async caughtUp(timeoutMs = 20_000) {
        const [[{ pos }]] = (await primary.server.admin.raw('select @@gtid_binlog_pos as pos')) as [[{ pos: string }]];
        await waitFor(
          async () => {
            const [[row]] = (await replica.server.admin.raw('select master_gtid_wait(?, 0) as r', [pos])) as [[{ r: number }]];
            return row.r === 0;
          },
          `the replica to reach ${pos}`,
          timeoutMs,
        );
      },
      async stop() {
        for (const server of servers) await server.admin.destroy().catch(() => undefined);
        for (const server of servers.reverse()) await server.kill();
        await rm(dir, { recursive: true, force: true });
      },
    };
    return pair;
  } catch (err) {
    for (const server of servers) await server.admin.destroy().catch(() => undefined);
    for (const child of started) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
