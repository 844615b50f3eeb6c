import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import nodemailerShared from 'nodemailer/lib/shared/index.js';

/** One mail as a transport sends it. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<...@domain>`, from the outbox key: a resend after a crash is recognisably the same message. */
  messageId: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post only). */
  headers?: Record<string, string>;
}

export interface MailTransport {
  kind: 'smtp' | 'file';
  /** Resolves once the relay accepted the mail (or the file is complete); `file` names the file written. */
  send(message: MailMessage): Promise<{ file?: string }>;
  close(): void;
}

/** What a failed send means for the mail: try it later with backoff, never again, or not its fault. */
export type SendFailure = 'relay_down' | 'temporary' | 'permanent';

const domainOf = (from: string): string => /@([^\s<>@]+)>?$/.exec(from)?.[1] ?? 'localhost';

export function messageIdFor(key: string, from: string): string {
  return `<${createHash('sha256').update(key).digest('hex').slice(0, 32)}@${domainOf(from)}>`;
}

/**
 * A refusal of the envelope or the message (MAIL FROM, RCPT TO, DATA) with an SMTP code is about this
 * mail: 4xx temporary, 5xx permanent. Anything else — refused or timed-out connection, greeting,
 * TLS, authentication, a closed socket — says the relay is unreachable or misconfigured, which no
 * retry of this one mail fixes: the mail waits, its attempts uncounted.
 */
export function classifySendError(err: unknown): SendFailure {
  const { code, responseCode } = (err ?? {}) as { code?: string; responseCode?: number };
  // 421 is the relay closing the channel (shutting down, overloaded), whatever command it answered.
  if ((code === 'EENVELOPE' || code === 'EMESSAGE') && typeof responseCode === 'number' && responseCode !== 421) {
    if (responseCode >= 500) return 'permanent';
    if (responseCode >= 400) return 'temporary';
  }
  return 'relay_down';
}

// Short enough that a dead relay is noticed in seconds, long enough for a slow one (nodemailer's
// defaults are 2 and 10 minutes). The worker's lease (LEASE_MS in worker.ts) outlasts the worst case.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

const LOOPBACK = /^(?:localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

/** SMTP_URL, nodemailer's URL form (its query options too), over a small pool of connections. */
export function smtpTransport(url: string, maxConnections = 5): MailTransport {
  const options = nodemailerShared.parseConnectionUrl(url);
  const host = options.host ?? 'localhost';
  const transporter: Transporter = createTransport({
    ...options,
    // smtp:// to another machine: STARTTLS or nothing, so a relay (or someone in between) that does
    // not offer it gets no password and no mail in clear. `?requireTLS=false` for a relay without TLS.
    requireTLS: options.requireTLS ?? (!options.secure && !LOOPBACK.test(host)),
    pool: true,
    maxConnections,
    maxMessages: 500,
    ...TIMEOUTS,
    // Without TCP_NODELAY the end of each message waits for a delayed ACK (~40 ms): a quarter of the
    // throughput over one connection.
    getSocket: noDelaySocket(host, options.port ?? (options.secure ? 465 : 587)),
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transporter.sendMail(message);
      return {};
    },
    close: () => transporter.close(),
  };
}

type SocketCallback = (err: null, socketOptions?: { connection: Socket }) => void;

/** The pool's connections, opened here (nodemailer's own never set TCP_NODELAY); TLS is still nodemailer's. */
function noDelaySocket(host: string, port: number) {
  return (_options: unknown, callback: SocketCallback): void => {
    const socket = connect({ host, port, noDelay: true });
    // Failed here: nodemailer's pool would not free the slot of a connection failed this early, so it
    // is left to connect by itself, fail the same way and clean up as it should.
    const fail = () => {
      clearTimeout(timer);
      callback(null);
    };
    const timer = setTimeout(() => socket.destroy(new Error('timed out')), TIMEOUTS.connectionTimeout);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      callback(null, { connection: socket });
    });
  };
}

const stamp = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * No relay (npm start, development): each mail is an RFC 822 .eml file in `dir`, written under a
 * temporary name and renamed, so whatever picks the files up never reads half of one.
 */
export function fileTransport(dir: string): MailTransport {
  const transporter = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let made: Promise<unknown> | undefined;
  return {
    kind: 'file',
    async send(message) {
      made ??= mkdir(dir, { recursive: true }).catch((err: unknown) => {
        made = undefined; // try again next time (the folder may be fixed meanwhile)
        throw err;
      });
      await made;
      const info = (await transporter.sendMail(message)) as { message: Buffer };
      const name = `${stamp(new Date())}-${message.messageId.slice(1, 17)}.eml`;
      const file = join(dir, name);
      await writeFile(join(dir, `.${name}.tmp`), info.message);
      await rename(join(dir, `.${name}.tmp`), file);
      return { file };
    },
    close: () => transporter.close(),
  };
}
