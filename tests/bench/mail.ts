// Mail outbox throughput: `npm run bench:mail` (env: BENCH_DATABASE_URL (MariaDB/MySQL, created if
// missing; or sqlite:path), BENCH_MAILS (2000)).
// A bff (startBff, its outbox worker on) sends through SMTP_URL to a local smtp-server. Figures:
// enqueue rate (enqueueMail in a transaction each, as the routes write mail), the rate at which a
// backlog of half the mails drains once the bff starts, and mails/s from enqueue to received for
// the other half enqueued live (each followed by nudgeMail()); every mail received exactly once.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createKnex, migrateLatest } from '@media-site/db';
import { composeMail, enqueueMail } from '@media-site/db/mail';
import { startBff } from '@media-site/bff/server';
import { loadConfig } from '@media-site/bff/config';
import { createLogOutput } from '@media-site/bff/logger';
import { nudgeMail } from '../../bff/src/mail/worker';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bench_mail';
const MAILS = Number(process.env.BENCH_MAILS ?? 2000);
const SITE = { name: 'Media Site', url: 'https://media.example.com' };

async function ensureDatabase(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) return;
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/';
  const admin = createKnex(u.toString());
  await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
}

async function main(): Promise<void> {
  await ensureDatabase(DATABASE_URL);
  const knex = createKnex(DATABASE_URL);
  await migrateLatest(knex);
  await knex('mail_outbox').delete();

  const ids = new Map<string, number>();
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 4096) head += c.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID: *(\S+)/im.exec(head)?.[1] ?? '?';
        ids.set(id, (ids.get(id) ?? 0) + 1);
        if (ids.size === MAILS) done();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;

  const enqueueOne = (i: number) => {
    const rendered = composeMail(SITE, `Receipt ${i}`, 'Hello member,', [
      'Thank you for your purchase.',
      {
        rows: [
          ['Amount', '14.99 USD'],
          ['Reference', `R-${i}`],
        ],
      },
    ]);
    return knex.transaction((trx) =>
      enqueueMail(trx, { key: `bench:${i}`, to: `member${i}@example.org`, template: 'receipt', ...rendered }, Date.now()),
    );
  };
  // 1. A backlog (the relay was down, or the worker off): the first half enqueued before the bff starts.
  const backlog = Math.floor(MAILS / 2);
  let t = performance.now();
  for (let i = 0; i < backlog; i++) await enqueueOne(i);
  const enqueueMs = performance.now() - t;

  const config = loadConfig({
    BFF_PORT: '0',
    DATABASE_URL,
    LOG_LEVEL: 'warn',
    SEARCH_INDEX: 'off',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Media Site <no-reply@mail.media-site.test>',
  });
  const { logger, destination } = createLogOutput(config.LOG_LEVEL);
  t = performance.now();
  const bff = await startBff(config, { knex, logger, logDestination: destination });
  while (ids.size < backlog) await new Promise((r) => setTimeout(r, 5));
  const drainMs = performance.now() - t;

  // 2. Live: each mail in its own transaction as a route writes it, then nudgeMail(); until the last arrives.
  t = performance.now();
  for (let i = backlog; i < MAILS; i++) {
    await enqueueOne(i);
    nudgeMail();
  }
  await all;
  const liveMs = performance.now() - t;
  const duplicates = [...ids.values()].filter((n) => n > 1).length;
  const live = MAILS - backlog;
  console.log(
    JSON.stringify({
      backend: DATABASE_URL.split(':')[0],
      mails: MAILS,
      enqueuePerSecond: Math.round(backlog / (enqueueMs / 1000)),
      backlogDrainPerSecond: Math.round(backlog / (drainMs / 1000)),
      liveEnqueueToReceivedPerSecond: Math.round(live / (liveMs / 1000)),
      received: [...ids.values()].reduce((a, b) => a + b, 0),
      duplicates,
    }),
  );
  await bff.close();
  await knex.destroy();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
}

await main();
