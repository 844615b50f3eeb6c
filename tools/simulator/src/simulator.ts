import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody } from './errors';
import { chargeErrors, paymentTokenErrors } from './validate';
import { PROVIDER_ACCEPT } from '@media-site/contracts/provider';

/**
 * A stand-in for the card provider's REST API (reference/ccbill.md), for development and tests.
 * Outcome by card number: Luhn-invalid -> 400 validation; ending 0000 -> declined (HTTP 200,
 * approved false); 0002 -> the charge stalls for `stallMs`, then is approved (our side has timed out);
 * 0005 -> 500; anything else approved. Card numbers are never stored or logged: only the outcome.
 */

export { PROVIDER_ACCEPT };

export interface Credential {
  appId: string;
  secret: string;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  clientAccnum?: number;
  clientSubacc?: number;
  frontend?: Credential;
  backend?: Credential;
  /** Seconds reported as expires_in. */
  tokenLifetimeSeconds?: number;
  stallMs?: number;
  /** Where webhooks go (our /api/ccbill/webhook); none when unset. */
  webhookUrl?: string;
  /** Send UpSaleSuccess / UpSaleFailure after each charge (as the provider does for token charges). */
  autoWebhooks?: boolean;
  /** The Data Link user of the subscription management API (cancelSubscription). */
  datalink?: { username: string; password: string };
}

/** One cancelSubscription call the simulator accepted (docs/ccbill-subscription-management.md). */
export interface CancellationRecord {
  subscriptionId: string;
  at: number;
}

export type Outcome = 'approve' | 'decline' | 'stall' | 'error';

export interface ChargeRecord {
  paymentTokenId: string;
  outcome: Outcome;
  approved: boolean;
  subscriptionId: string | null;
  transactionId: string;
  initialPrice: string;
  /** The rest of the terms as received, so a test can check exactly what a member was charged on. */
  initialPeriod: string;
  recurringPrice: string;
  recurringPeriod: string;
  rebills: string;
  currencyCode: string;
  passThrough: Record<string, string>;
}

export type FailureStep = 'frontend-oauth' | 'backend-oauth' | 'payment-token' | 'datalink';

interface StoredToken {
  outcome: Outcome;
  expiresAt: number;
  usesLeft: number;
}

export interface Simulator {
  url: string;
  charges: ChargeRecord[];
  cancellations: CancellationRecord[];
  /** The next `count` calls of that step fail (500 for OAuth and payment tokens). */
  failNext(step: FailureStep, count?: number): void;
  sendWebhook(eventType: string, fields: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

const DEFAULTS = {
  clientAccnum: 900000,
  clientSubacc: 0,
  frontend: { appId: 'sim-frontend-app', secret: 'sim-frontend-secret-local-only' },
  backend: { appId: 'sim-backend-app', secret: 'sim-backend-secret-local-only' },
  datalink: { username: 'sim-datalink', password: 'sim-datalink-password-local-only' },
};

/** subscriptionManagement.cgi's answer, as the provider writes it: CSV unless `returnXML=1`. */
function datalinkAnswer(code: number, xml: boolean): string {
  return xml ? `<?xml version='1.0' standalone='yes'?>\n<results>${code}</results>\n` : `"results"\n"${code}"\n`;
}

function outcomeOf(cardNum: string): Outcome {
  if (cardNum.endsWith('0000')) return 'decline';
  if (cardNum.endsWith('0002')) return 'stall';
  if (cardNum.endsWith('0005')) return 'error';
  return 'approve';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function digits(length: number): string {
  let out = String(randomInt(1, 10));
  while (out.length < length) out += String(randomInt(0, 10));
  return out;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const clientAccnum = options.clientAccnum ?? DEFAULTS.clientAccnum;
  const clientSubacc = options.clientSubacc ?? DEFAULTS.clientSubacc;
  const frontend = options.frontend ?? DEFAULTS.frontend;
  const backend = options.backend ?? DEFAULTS.backend;
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  const stallMs = options.stallMs ?? 30_000;
  const signingKey = randomBytes(32);
  const bearers = new Map<string, { role: 'frontend' | 'backend'; expiresAt: number }>();
  const tokens = new Map<string, StoredToken>();
  const charges: ChargeRecord[] = [];
  const cancellations: CancellationRecord[] = [];
  const datalink = options.datalink ?? DEFAULTS.datalink;
  const failures = new Map<FailureStep, number>();
  const stalls = new Set<ServerResponse>();

  const failing = (step: FailureStep) => {
    const left = failures.get(step) ?? 0;
    if (left > 0) failures.set(step, left - 1);
    return left > 0;
  };

  function send(res: ServerResponse, status: number, body?: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  }

  function jwt(role: 'frontend' | 'backend'): string {
    const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + lifetime;
    const payload = Buffer.from(JSON.stringify({ sub: role, exp, jti: randomBytes(8).toString('hex') })).toString('base64url');
    const sig = createHmac('sha256', signingKey).update(`${head}.${payload}`).digest('base64url');
    const token = `${head}.${payload}.${sig}`;
    bearers.set(token, { role, expiresAt: exp * 1000 });
    return token;
  }

  function bearerRole(req: IncomingMessage): 'frontend' | 'backend' | undefined {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const entry = match?.[1] ? bearers.get(match[1]) : undefined;
    return entry && entry.expiresAt > Date.now() ? entry.role : undefined;
  }

  function oauth(req: IncomingMessage, res: ServerResponse, raw: string): void {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      send(res, 400, { error: 'invalid_request', error_description: 'form-encoded body required' });
      return;
    }
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
      send(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    const [appId, secret] = Buffer.from(basic?.[1] ?? '', 'base64')
      .toString('utf8')
      .split(':');
    const role =
      appId === frontend.appId && secret === frontend.secret
        ? 'frontend'
        : appId === backend.appId && secret === backend.secret
          ? 'backend'
          : undefined;
    if (!role) {
      send(res, 401);
      return;
    }
    if (failing(role === 'frontend' ? 'frontend-oauth' : 'backend-oauth')) {
      send(res, 500, { error: 'server_error' });
      return;
    }
    send(res, 200, { access_token: jwt(role), token_type: 'bearer', expires_in: lifetime, scope: 'read write' });
  }

  function apiHeadersOk(req: IncomingMessage, res: ServerResponse, url: string): boolean {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      send(res, 415, errorBody(url, 100004, 'Unsupported Media Type'));
      return false;
    }
    if (req.headers.accept !== PROVIDER_ACCEPT) {
      send(res, 406, errorBody(url, 100004, `Accept must be ${PROVIDER_ACCEPT}`));
      return false;
    }
    return true;
  }

  function parseJson(raw: string): Record<string, unknown> | undefined {
    try {
      const value: unknown = JSON.parse(raw);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  function createPaymentToken(req: IncomingMessage, res: ServerResponse, raw: string, url: string): void {
    const role = bearerRole(req);
    if (!role) return send(res, 401);
    if (role !== 'frontend') return send(res, 403, errorBody(url, 100020, 'Access denied'));
    if (!apiHeadersOk(req, res, url)) return undefined;
    if (failing('payment-token')) return send(res, 500, errorBody(url, 100100, 'Internal Server Error'));
    const body = parseJson(raw);
    const errors = body ? paymentTokenErrors(body) : [{ field: 'body', message: 'malformed JSON' }];
    if (!body || errors.length > 0) return send(res, 400, errorBody(url, 200000, 'Validation failed!', errors));
    if (body.clientAccnum !== clientAccnum || body.clientSubacc !== clientSubacc)
      return send(res, 500, errorBody(url, 100100, 'Invalid client account'));
    const card = (body.paymentInfo as { creditCardPaymentInfo: { cardNum: string } }).creditCardPaymentInfo;
    const paymentTokenId = randomBytes(16).toString('hex');
    const timeToLive = body.timeToLive as number;
    const validNumberOfUse = body.validNumberOfUse as number;
    tokens.set(paymentTokenId, {
      outcome: outcomeOf(card.cardNum),
      expiresAt: Date.now() + timeToLive * 3_600_000,
      usesLeft: validNumberOfUse,
    });
    return send(res, 200, {
      paymentTokenId,
      programParticipationId: null,
      originPaymentTokenId: null,
      subscriptionId: '0',
      clientAccnum,
      clientSubacc,
      createdDatetime: new Date().toISOString(),
      timeToLive,
      validNumberOfUse,
      paymentInfoId: null,
      cvv2Response: 'M',
      avsResponse: 'Y',
    });
  }

  async function charge(req: IncomingMessage, res: ServerResponse, raw: string, url: string, tokenId: string): Promise<void> {
    const role = bearerRole(req);
    if (!role) return send(res, 401);
    if (role !== 'backend') return send(res, 403, errorBody(url, 100020, 'Access denied'));
    if (!apiHeadersOk(req, res, url)) return undefined;
    const body = parseJson(raw);
    const errors = body ? chargeErrors(body) : [{ field: 'body', message: 'malformed JSON' }];
    if (!body || errors.length > 0) return send(res, 400, errorBody(url, 200000, 'Validation failed!', errors));
    if (body.clientAccnum !== clientAccnum || body.clientSubacc !== clientSubacc)
      return send(res, 500, errorBody(url, 100100, 'Invalid client account'));
    const token = tokens.get(tokenId);
    if (!token) return send(res, 404, errorBody(url, 100101, 'Payment token not found'));
    if (token.expiresAt <= Date.now() || token.usesLeft <= 0) return send(res, 400, errorBody(url, 100102, 'Payment token expired'));
    token.usesLeft -= 1;
    const passThrough: Record<string, string> = {};
    for (const item of (body.passThroughInfo as { name?: unknown; value?: unknown }[] | undefined) ?? []) {
      if (typeof item?.name === 'string') passThrough[item.name] = String(item.value ?? '');
    }
    const record: ChargeRecord = {
      paymentTokenId: tokenId,
      outcome: token.outcome,
      approved: token.outcome === 'approve' || token.outcome === 'stall',
      subscriptionId: null,
      transactionId: digits(18),
      initialPrice: String(body.initialPrice),
      initialPeriod: String(body.initialPeriod),
      recurringPrice: String(body.recurringPrice ?? ''),
      recurringPeriod: String(body.recurringPeriod ?? ''),
      rebills: String(body.rebills ?? ''),
      currencyCode: String(body.currencyCode),
      passThrough,
    };
    charges.push(record);
    if (token.outcome === 'error') return send(res, 500, errorBody(url, 100100, 'Internal Server Error'));
    if (token.outcome === 'stall') {
      stalls.add(res);
      await new Promise((resolve) => setTimeout(resolve, stallMs));
      stalls.delete(res);
    }
    if (record.approved) record.subscriptionId = digits(18);
    send(res, 200, {
      approved: record.approved,
      declineCode: record.approved ? null : 27,
      declineText: record.approved ? null : 'System Error, Please Try Again',
      denialId: record.approved ? null : digits(12),
      paymentUniqueId: randomBytes(12).toString('hex'),
      sessionId: null,
      subscriptionId: record.subscriptionId,
      newPaymentTokenId: null,
    });
    if (options.autoWebhooks && options.webhookUrl) {
      const fields: Record<string, unknown> = {
        subscriptionId: record.subscriptionId ?? digits(18),
        transactionId: record.transactionId,
        clientAccnum,
        clientSubacc,
        timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19),
        billedAmount: record.initialPrice,
        ...(record.approved ? {} : { failureReason: 'System Error, Please Try Again' }),
      };
      for (const [name, value] of Object.entries(passThrough)) fields[`X-${name}`] = value;
      void sendWebhook(record.approved ? 'UpSaleSuccess' : 'UpSaleFailure', fields).catch(() => {});
    }
    return undefined;
  }

  async function sendWebhook(eventType: string, fields: Record<string, unknown>): Promise<number> {
    if (!options.webhookUrl) throw new Error('no webhookUrl configured');
    const url = new URL(options.webhookUrl);
    url.searchParams.set('clientAccnum', String(clientAccnum));
    url.searchParams.set('clientSubacc', String(clientSubacc));
    url.searchParams.set('eventType', eventType);
    url.searchParams.set('eventGroupType', 'Subscription');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ clientAccnum, clientSubacc, ...fields }),
      signal: AbortSignal.timeout(10_000),
    });
    return res.status;
  }

  /**
   * GET /utils/subscriptionManagement.cgi?action=cancelSubscription (the provider's Data Link API):
   * the merchant's account and Data Link user, the subscription of an approved charge. A
   * cancellation stops the rebilling only (access runs to the paid-through date) and is followed by
   * the Cancellation webhook. Cancelling again answers 1 again.
   */
  function subscriptionManagement(res: ServerResponse, url: URL): void {
    const q = url.searchParams;
    const answer = (code: number) => {
      if (res.writableEnded || res.destroyed) return;
      res
        .writeHead(200, { 'Content-Type': q.get('returnXML') === '1' ? 'text/xml' : 'text/plain' })
        .end(datalinkAnswer(code, q.get('returnXML') === '1'));
    };
    if (
      q.get('clientAccnum') !== String(clientAccnum) ||
      q.get('username') !== datalink.username ||
      q.get('password') !== datalink.password
    )
      return answer(-1);
    if (failing('datalink')) return answer(-7);
    if (q.get('action') !== 'cancelSubscription') return answer(-6);
    const subscriptionId = q.get('subscriptionId') ?? '';
    if (!/^\d{1,20}$/.test(subscriptionId)) return answer(-2);
    const charge = charges.find((c) => c.approved && c.subscriptionId === subscriptionId);
    if (!charge) return answer(-3);
    if (q.get('usingSubacc') !== null && Number(q.get('usingSubacc')) !== clientSubacc) return answer(-4);
    const again = cancellations.some((c) => c.subscriptionId === subscriptionId);
    if (!again) cancellations.push({ subscriptionId, at: Date.now() });
    answer(1);
    if (!again && options.webhookUrl) {
      const fields = {
        subscriptionId,
        transactionId: digits(19),
        timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19),
        reason: 'Merchant cancelled (subscription management API)',
      };
      void sendWebhook('Cancellation', fields).catch(() => {});
    }
  }

  function cors(req: IncomingMessage, res: ServerResponse): void {
    // The browser creates payment tokens here directly (spec §7), from the site's own origin.
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept');
    res.setHeader('Access-Control-Max-Age', '600');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    cors(req, res);
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (req.method === 'OPTIONS') return send(res, 204);
    if (req.method === 'GET' && url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
    // Control endpoints, for tests driving a simulator in another process.
    if (req.method === 'GET' && url.pathname === '/_sim/charges') return send(res, 200, { charges });
    if (req.method === 'GET' && url.pathname === '/_sim/cancellations') return send(res, 200, { cancellations });
    if (req.method === 'GET' && url.pathname === '/utils/subscriptionManagement.cgi') return subscriptionManagement(res, url);
    if (req.method !== 'POST') return send(res, 405);
    const raw = await readBody(req);
    if (url.pathname === '/_sim/fail') {
      const body = parseJson(raw) ?? {};
      failures.set(body.step as FailureStep, Number(body.count ?? 1));
      return send(res, 204);
    }
    if (url.pathname === '/_sim/webhook') {
      const body = parseJson(raw) ?? {};
      return send(res, 200, { status: await sendWebhook(String(body.eventType), (body.fields as Record<string, unknown>) ?? {}) });
    }
    if (url.pathname === '/ccbill-auth/oauth/token') return oauth(req, res, raw);
    if (url.pathname === '/payment-tokens/merchant-only-verify') return createPaymentToken(req, res, raw, url.pathname);
    const chargeMatch = /^\/transactions\/payment-tokens\/([^/]+)$/.exec(url.pathname);
    if (chargeMatch?.[1]) return charge(req, res, raw, url.pathname, chargeMatch[1]);
    return send(res, 404, errorBody(url.pathname, 100101, 'Not found'));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 400, errorBody(req.url ?? '/', 200000, 'Validation failed!')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    charges,
    cancellations,
    failNext(step, count = 1) {
      failures.set(step, count);
    },
    sendWebhook,
    close() {
      for (const res of stalls) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
