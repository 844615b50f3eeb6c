import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimDueMails, composeMail, enqueueMail, outboxCounts, type MailSite } from '@media-site/db/mail';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { header, startTestSmtp, type TestSmtp } from '../test/smtp-server';
import { classifySendError, fileTransport, smtpTransport } from './transport';
import { startMailWorker, type MailWorker, type MailWorkerOptions } from './worker';

const SITE: MailSite = { name: 'Media Site', url: 'https://media.example.com' };
const FROM = '"Media Site" <no-reply@mail.example.com>';
/** The From header as nodemailer writes it (quotes only where the name needs them). */
const FROM_HEADER = 'Media Site <no-reply@mail.example.com>';
const silent = pino({ level: 'silent' });

let seq = 0;
async function enqueue(db: TestDb, to: string, template = 'notice', text = 'Your membership renews tomorrow.'): Promise<string> {
  const key = `test:${Date.now()}:${++seq}`;
  const rendered = composeMail(SITE, `Notice ${seq}`, 'Hello member,', [text]);
  await enqueueMail(db.knex, { key, to, template, ...rendered }, Date.now());
  return key;
}

const byMessageId = (smtp: TestSmtp) => {
  const counts = new Map<string, number>();
  for (const m of smtp.received) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
  return counts;
};

async function settled(db: TestDb, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await outboxCounts(db.knex)).pending > 0) {
    if (Date.now() > until) throw new Error('outbox still has pending mail');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testBackends())('mail outbox worker (%s)', (backend) => {
  let db: TestDb;
  let smtp: TestSmtp;
  const workers: MailWorker[] = [];
  const start = (options: Partial<MailWorkerOptions> = {}) => {
    const worker = startMailWorker({
      knex: db.knex,
      transport: smtpTransport(smtp.url),
      logger: silent,
      from: FROM,
      pollMs: 100,
      ...options,
    });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    db = await createTestDb(backend);
    smtp = await startTestSmtp();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await db.knex('mail_outbox').delete();
    smtp.received.length = 0;
    smtp.refuse.clear();
  });
  afterAll(async () => {
    await smtp.stop();
    await db.destroy();
  });

  it('sends every mail once, with From, To, Subject, a Message-ID from its key, and text and HTML parts', async () => {
    const keys = [];
    for (let i = 0; i < 25; i++) keys.push(await enqueue(db, `member${i}@example.org`));
    start();
    await smtp.waitFor(25);
    await settled(db);
    expect(smtp.received).toHaveLength(25);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(25);
    const first = smtp.received.find((m) => m.to === 'member0@example.org')!;
    expect(first.from).toBe(FROM_HEADER);
    expect(first.rcpt).toEqual(['member0@example.org']);
    expect(first.subject).toBe(`Notice ${seq - 24} · Media Site`);
    expect(first.messageId).toMatch(/^<[0-9a-f]{32}@mail\.example\.com>$/);
    expect(first.raw).toContain('multipart/alternative');
    expect(first.raw).toContain('text/plain');
    expect(first.raw).toContain('text/html');
    const rows = await db.knex('mail_outbox').select('status', 'attempts', 'sent_at', 'claimed_until');
    expect(
      rows.every(
        (r: { status: string; attempts: number | string; claimed_until: unknown }) =>
          r.status === 'sent' && Number(r.attempts) === 1 && r.claimed_until === null,
      ),
    ).toBe(true);
  });

  it('a mail enqueued while the worker idles goes out on a nudge, before the next poll', async () => {
    const worker = start({ pollMs: 60_000 });
    await new Promise((r) => setTimeout(r, 200));
    await enqueue(db, 'nudged@example.org');
    const started = Date.now();
    worker.nudge();
    await smtp.waitFor(1, 5000);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('two workers on the same database send each mail exactly once', async () => {
    for (let i = 0; i < 60; i++) await enqueue(db, `pair${i}@example.org`);
    const sent = [0, 0];
    for (const i of [0, 1]) start({ batch: 7, concurrency: 3, metrics: { sent: () => sent[i]!++, failure: () => {} } });
    await smtp.waitFor(60);
    await settled(db);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received).toHaveLength(60);
    // Both took part: the claims really competed.
    expect(sent[0]! + sent[1]!).toBe(60);
    expect(Math.min(...sent)).toBeGreaterThan(0);
    expect([...byMessageId(smtp).values()].every((n) => n === 1)).toBe(true);
  });

  it('a 4xx for one recipient is retried later with backoff; a 5xx marks it failed; the others go out', async () => {
    smtp.refuse.set('busy@example.org', [451, 'mailbox busy, try later']);
    smtp.refuse.set('gone@example.org', [550, 'no such user']);
    const busy = await enqueue(db, 'busy@example.org');
    const gone = await enqueue(db, 'gone@example.org');
    for (let i = 0; i < 5; i++) await enqueue(db, `fine${i}@example.org`);
    const failures: string[] = [];
    const before = Date.now();
    start({ backoffMs: (n) => 1000 * 2 ** n, metrics: { sent: () => {}, failure: (kind) => failures.push(kind) } });
    await smtp.waitFor(5);
    await new Promise((r) => setTimeout(r, 300));
    const row = async (key: string) => db.knex('mail_outbox').where({ mail_key: key }).first();
    const waiting = await row(busy);
    expect(waiting.status).toBe('pending');
    expect(Number(waiting.attempts)).toBe(1);
    expect(Number(waiting.next_attempt_at)).toBeGreaterThanOrEqual(before + 1000);
    expect(waiting.last_error).toContain('451');
    const refused = await row(gone);
    expect(refused.status).toBe('failed');
    expect(refused.last_error).toContain('550');
    expect(failures.sort()).toEqual(['permanent', 'temporary']);
    // The mailbox frees up: the retry (after 1 s) delivers it, once.
    smtp.refuse.delete('busy@example.org');
    await smtp.waitFor(6, 5000);
    await settled(db);
    expect((await row(busy)).status).toBe('sent');
    expect(Number((await row(busy)).attempts)).toBe(2);
    expect(smtp.received.filter((m) => m.to === 'gone@example.org')).toHaveLength(0);
  });

  it('no value reaches a header it was not meant for: a To with a line break is refused, a Subject made one line', async () => {
    const injected = 'victim@example.org\r\nBcc: thief@example.org';
    const titled = composeMail(SITE, 'Receipt for Clip\r\nBcc: thief@example.org\r\nX-Evil: 1', 'Hello member,', ['Thanks.']);
    await enqueueMail(db.knex, { key: 'inject:subject', to: 'buyer@example.org', template: 'vod-receipt', ...titled }, Date.now());
    await enqueueMail(db.knex, { key: 'inject:to', to: injected, template: 'notice', ...titled }, Date.now());
    // A row some older writer left in the outbox: the sender checks again.
    await db.knex('mail_outbox').insert({
      mail_key: 'inject:stored',
      to_address: 'g:thief@example.org;',
      template: 'notice',
      subject: 'Stored\r\nBcc: thief@example.org',
      text_body: 'x',
      html_body: '<p>x</p>',
      status: 'pending',
      attempts: 0,
      created_at: Date.now(),
      next_attempt_at: Date.now(),
    });
    start();
    await smtp.waitFor(1);
    await settled(db);
    expect(smtp.received.map((m) => m.rcpt)).toEqual([['buyer@example.org']]);
    const [mail] = smtp.received;
    expect(mail!.subject).toBe('Receipt for Clip Bcc: thief@example.org X-Evil: 1 · Media Site');
    const head = mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^(?:bcc|x-evil):/im);
    const refused = await db.knex('mail_outbox').whereIn('mail_key', ['inject:to', 'inject:stored']).orderBy('mail_key');
    expect(refused.map((r: { status: string }) => r.status)).toEqual(['failed', 'failed']);
    for (const r of refused as { last_error: string }[]) expect(r.last_error).toMatch(/not one plain e-mail address/);
  });

  it('a row claimed by a sender that died is claimed again once its lease has passed', async () => {
    await enqueue(db, 'lease@example.org');
    const t = Date.now();
    expect(await claimDueMails(db.knex, t, 10, 60_000)).toHaveLength(1);
    expect(await claimDueMails(db.knex, t + 59_000, 10, 60_000)).toHaveLength(0);
    expect(await claimDueMails(db.knex, t + 61_000, 10, 60_000)).toHaveLength(1);
  });

  it.runIf(backend === testBackends()[0])(
    'a relay outage of 15 s loses nothing and sends nothing twice; delivery resumes within seconds of its return',
    async () => {
      const failures: string[] = [];
      start({ metrics: { sent: () => {}, failure: (kind) => failures.push(kind) } });
      for (let i = 0; i < 10; i++) await enqueue(db, `before${i}@example.org`);
      await smtp.stop();
      // 15 s down (five relay probes, 3 s apart): 5 more mails every 2.5 s while it is.
      for (let round = 0; round < 6; round++) {
        for (let i = 0; i < 5; i++) await enqueue(db, `during${round}-${i}@example.org`);
        await new Promise((r) => setTimeout(r, 2_500));
      }
      const counts = await outboxCounts(db.knex);
      expect(counts.pending + smtp.received.length).toBe(40);
      expect(counts.pending).toBeGreaterThanOrEqual(30);
      await smtp.start();
      const back = Date.now();
      await smtp.waitFor(40, 30_000);
      const resumeMs = Date.now() - back;
      console.log(`mail: relay back after 15 s down -> all ${counts.pending} queued mails delivered in ${resumeMs} ms`);
      await settled(db);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.received).toHaveLength(40);
      expect([...byMessageId(smtp).values()].every((n) => n === 1)).toBe(true);
      expect(resumeMs).toBeLessThan(6000);
      // The outage counted no attempts against the mails themselves.
      const rows = (await db.knex('mail_outbox').select('status', 'attempts')) as Array<{ status: string; attempts: number | string }>;
      expect(rows.every((r) => r.status === 'sent' && Number(r.attempts) === 1)).toBe(true);
      expect(failures.filter((k) => k !== 'relay_down')).toEqual([]);
      expect(failures.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('mail as files (no SMTP_URL)', () => {
  let db: TestDb;
  let dir: string;
  beforeAll(async () => {
    db = await createTestDb('sqlite');
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  });
  afterAll(async () => {
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes each mail as a readable .eml file and logs a reset link outside production', async () => {
    const lines: Array<{ msg: string; link?: string; file?: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string });
        done();
      },
    });
    const link = `${SITE.url}/reset-password?token=abc123`;
    const reset = composeMail(SITE, 'Reset your password', 'Hello member,', [
      'Someone asked to reset your password.',
      { link, label: 'Choose a new password' },
    ]);
    await enqueueMail(db.knex, { key: 'reset:file-test', to: 'member@example.org', template: 'password-reset', ...reset }, Date.now());
    await enqueue(db, 'other@example.org');
    const worker = startMailWorker({
      knex: db.knex,
      transport: fileTransport(dir),
      logger: pino({ level: 'info' }, sink),
      from: FROM,
      pollMs: 100,
      logFiles: true,
    });
    await settled(db);
    await worker.stop();
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const raws = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
    const raw = raws.find((r) => header(r, 'To') === 'member@example.org')!;
    expect(header(raw, 'From')).toBe(FROM_HEADER);
    expect(header(raw, 'Subject')).toBe('Reset your password · Media Site');
    expect(header(raw, 'Message-ID')).toMatch(/^<[0-9a-f]{32}@mail\.example\.com>$/);
    expect(raw).toContain('\r\n\r\n');
    const written = lines.filter((l) => l.msg.startsWith('mail written to '));
    expect(written).toHaveLength(2);
    expect(written.find((l) => l.link)?.link).toBe(link);
    expect(written.filter((l) => l.link)).toHaveLength(1);
  });
});

describe('smtps (TLS from the first byte, port 465 style)', () => {
  it('sends through an implicit-TLS relay, the query options (tls.*) honoured', async () => {
    const got: string[] = [];
    const server = new SMTPServer({
      secure: true, // smtp-server's built-in self-signed certificate
      authOptional: true,
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString()));
        stream.on('end', () => {
          got.push(header(raw, 'Subject'));
          callback();
        });
      },
    });
    server.on('error', () => {}); // the strict client's refused handshake
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    const transport = smtpTransport(`smtps://127.0.0.1:${port}/?tls.rejectUnauthorized=false`);
    try {
      await transport.send({
        from: FROM,
        to: 'tls@example.org',
        subject: 'Over TLS',
        text: 'hello',
        html: '<p>hello</p>',
        messageId: '<tls@mail.example.com>',
      });
      expect(got).toEqual(['Over TLS']);
      // The certificate is checked unless the URL says otherwise.
      const strict = smtpTransport(`smtps://127.0.0.1:${port}`);
      await expect(
        strict.send({ from: FROM, to: 'tls@example.org', subject: 'x', text: 'x', html: 'x', messageId: '<x@mail.example.com>' }),
      ).rejects.toThrow();
      strict.close();
    } finally {
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('smtp:// to another machine', () => {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.runIf(address)(
    'requires STARTTLS: a relay that does not offer it gets nothing in clear, unless the URL says requireTLS=false',
    async () => {
      const got: string[] = [];
      const server = new SMTPServer({
        disabledCommands: ['STARTTLS'],
        authOptional: true,
        logger: false,
        onData(stream, _session, callback) {
          stream.on('data', () => {});
          stream.on('end', () => {
            got.push('mail');
            callback();
          });
        },
      });
      server.on('error', () => {});
      await new Promise<void>((resolve) => server.listen(0, address, resolve));
      const port = (server.server.address() as AddressInfo).port;
      const message = { from: FROM, to: 'clear@example.org', subject: 'x', text: 'x', html: 'x', messageId: '<clear@mail.example.com>' };
      const strict = smtpTransport(`smtp://user:secret@${address}:${port}`);
      const plain = smtpTransport(`smtp://${address}:${port}/?requireTLS=false`);
      try {
        const err = await strict.send(message).catch((e: unknown) => e);
        expect(classifySendError(err)).toBe('relay_down');
        expect(got).toEqual([]);
        await plain.send(message);
        expect(got).toEqual(['mail']);
      } finally {
        strict.close();
        plain.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});

describe('classifySendError', () => {
  it('tells a refusal of the mail from an unreachable relay', () => {
    expect(classifySendError({ code: 'EENVELOPE', responseCode: 550 })).toBe('permanent');
    expect(classifySendError({ code: 'EMESSAGE', responseCode: 552 })).toBe('permanent');
    expect(classifySendError({ code: 'EENVELOPE', responseCode: 450 })).toBe('temporary');
    expect(classifySendError({ code: 'EENVELOPE', responseCode: 421 })).toBe('relay_down');
    for (const code of ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ETLS', 'EAUTH', 'EDNS', 'EPROTOCOL'])
      expect(classifySendError({ code })).toBe('relay_down');
    expect(classifySendError({ code: 'EAUTH', responseCode: 535 })).toBe('relay_down');
    expect(classifySendError(new Error('boom'))).toBe('relay_down');
  });
});
