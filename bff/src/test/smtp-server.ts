import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as the test relay received it. */
export interface ReceivedMail {
  messageId: string;
  from: string;
  to: string;
  /** Decoded (RFC 2047 encoded words undone). */
  subject: string;
  /** The envelope's recipients. */
  rcpt: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Recipients answered with an SMTP error at RCPT TO: code and text, e.g. [451, 'try later']. */
  refuse: Map<string, [number, string]>;
  /** Stops listening (connections are cut within ~0.2 s): the relay is down. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Resolves once `count` mails arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
}

const decodeWords = (value: string): string =>
  value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, body: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(body, 'base64').toString('utf8')
      : Buffer.from(
          body.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );

/** Header `name` of a raw message (folded lines joined). */
export function header(raw: string, name: string): string {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? decodeWords(line.slice(name.length + 1).trim()) : '';
}

/** A real SMTP server (smtp-server) on a free port, no TLS, any or no authentication accepted. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refuse = new Map<string, [number, string]>();
  const waiters = new Set<() => void>();
  let port = 0;
  let server: SMTPServer | undefined;

  const create = () =>
    new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
      onRcptTo(address, _session, callback) {
        const refusal = refuse.get(address.address);
        if (!refusal) return callback();
        const err = Object.assign(new Error(refusal[1]), { responseCode: refusal[0] });
        callback(err);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({
            messageId: header(raw, 'Message-ID'),
            from: header(raw, 'From'),
            to: header(raw, 'To'),
            subject: header(raw, 'Subject'),
            rcpt: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          for (const wake of waiters) wake();
          callback();
        });
      },
    });

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = create();
      server.on('error', () => {}); // a client's dropped connection is not the test's business
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.server.address() as AddressInfo).port;
        resolve();
      });
    });
  await start();

  return {
    port,
    url: `smtp://user:pass@127.0.0.1:${port}`,
    received,
    refuse,
    start,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    waitFor(count, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} mails arrived in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
