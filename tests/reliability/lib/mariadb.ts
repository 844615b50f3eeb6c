import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { freePort } from '../../../scripts/lib/process';
import { waitUntil } from './http';

export interface OwnMariadb {
  /** Server URL without a database. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, a clean shutdown) and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: a server that hangs with its connections open. */
  freeze(): void;
  thaw(): void;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * A MariaDB server of this test's own (never the shared one on 3306), so it can be stopped and
 * restarted mid-test: its own data folder, a free port, no grant tables.
 */
export async function startOwnMariadb(): Promise<OwnMariadb> {
  const dir = mkdtempSync(join(tmpdir(), 'rel-mariadb-'));
  const datadir = join(dir, 'data');
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', '--user=root'],
    {
      encoding: 'utf8',
    },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn(
      '/usr/sbin/mariadbd',
      [
        '--no-defaults',
        `--datadir=${datadir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(dir, 'sock')}`,
        `--pid-file=${join(dir, 'pid')}`,
        `--log-error=${join(dir, 'error.log')}`,
        '--skip-grant-tables',
        '--user=root',
        '--innodb-buffer-pool-size=32M',
        '--skip-log-bin',
      ],
      { stdio: 'ignore' },
    );
    const child = proc;
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`mariadbd exited (${child.exitCode}); see ${join(dir, 'error.log')}`);
        return accepts(port);
      },
      'mariadbd to accept connections',
      60_000,
      100,
    );
  };
  const stop = async () => {
    const child = proc;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url: `mysql://root@127.0.0.1:${port}`,
    port,
    start,
    stop,
    freeze: () => proc?.kill('SIGSTOP'),
    thaw: () => proc?.kill('SIGCONT'),
    async destroy() {
      proc?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
