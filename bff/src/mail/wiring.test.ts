import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMail, enqueueMail } from '@media-site/db/mail';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { loadConfig } from '../config';
import { startBff, type RunningBff } from '../server';
import { silentLogger } from '../test/harness';
import { nudgeMail } from './worker';

const SITE = { name: 'Media Site', url: 'https://media.example.com' };
const mail = (key: string) => ({
  key,
  to: 'member@example.org',
  template: 'receipt',
  ...composeMail(SITE, 'Your receipt', 'Hello member,', ['Thank you.']),
});

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the bff sends its outbox', () => {
  let db: TestDb;
  let dir: string;
  const bffs: RunningBff[] = [];
  const start = async (env: Record<string, string>) => {
    const bff = await startBff(
      loadConfig({
        DATABASE_URL: db.url,
        BFF_PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
        MAIL_DIR: dir,
        MAIL_POLL_MS: '60000',
        ...env,
      }),
      {
        knex: db.knex,
        logger: silentLogger,
      },
    );
    bffs.push(bff);
    return bff;
  };
  const scrape = async (bff: RunningBff) => (await fetch(`http://127.0.0.1:${bff.metricsPort}/metrics`)).text();

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    dir = await mkdtemp(join(tmpdir(), 'bff-outbox-'));
  });
  afterAll(async () => {
    for (const bff of bffs) await bff.close();
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('MAIL_WORKER=off sends nothing; the backlog shows in mail_outbox_oldest_unsent_seconds', async () => {
    const bff = await start({ MAIL_WORKER: 'off' });
    await enqueueMail(db.knex, mail('wiring:1'), Date.now() - 5000);
    nudgeMail();
    await new Promise((r) => setTimeout(r, 300));
    expect(await readdir(dir)).toEqual([]);
    const age = Number(/^mail_outbox_oldest_unsent_seconds (\S+)$/m.exec(await scrape(bff))?.[1]);
    expect(age).toBeGreaterThanOrEqual(5);
    await bff.close();
  });

  it('a started bff sends a committed mail when nudged (not at the next poll), counts it, and stops with close()', async () => {
    const bff = await start({});
    await until(async () => (await readdir(dir)).length === 1); // the backlog, at start
    await db.knex.transaction((trx) => enqueueMail(trx, mail('wiring:2'), Date.now()));
    nudgeMail();
    await until(async () => (await readdir(dir)).filter((f) => f.endsWith('.eml')).length === 2, 2000);
    await until(async () => (await db.knex('mail_outbox').where({ status: 'pending' }).count({ n: '*' }))[0]!.n == 0);
    const text = await scrape(bff);
    expect(text).toMatch(/^mail_sent_total\{template="receipt"\} [2-9]/m);
    expect(text).toMatch(/^mail_outbox_oldest_unsent_seconds 0$/m);
    expect(text).toMatch(/^mail_send_failures_total\{kind="relay_down"\} 0$/m);
    await bff.close();
    await enqueueMail(db.knex, mail('wiring:3'), Date.now());
    nudgeMail();
    await new Promise((r) => setTimeout(r, 300));
    expect((await readdir(dir)).filter((f) => f.endsWith('.eml'))).toHaveLength(2);
  });
});
