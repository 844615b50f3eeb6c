import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '@media-site/contracts/errors';

// OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1 (128 MiB of memory per hash).
export const PRODUCTION_LOG_N = 17;
const PARAMS = { r: 8, p: 1 };
const LOG_N_RANGE = { min: 10, max: 20 };

/**
 * PASSWORD_HASH_LOG_N: the cost of new hashes (verifying always uses the cost stored with the hash).
 * Tests set a low one (12: 4 MiB, ~10 ms) so that hundreds of sign-ins do not each take 0.4 s of a
 * core; production refuses anything below 17, so a value copied from a test setup fails loudly.
 */
export function hashLogNFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PASSWORD_HASH_LOG_N;
  if (raw === undefined || raw === '') return PRODUCTION_LOG_N;
  const logN = /^\d{1,2}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(logN >= LOG_N_RANGE.min && logN <= LOG_N_RANGE.max)) {
    throw new Error(`PASSWORD_HASH_LOG_N must be a whole number from ${LOG_N_RANGE.min} to ${LOG_N_RANGE.max} (got "${raw.slice(0, 20)}")`);
  }
  // NODE_ENV without case or surrounding spaces, as the services read it (contracts/secret-policy.ts).
  if (logN < PRODUCTION_LOG_N && env.NODE_ENV?.trim().toLowerCase() === 'production') {
    throw new Error(`PASSWORD_HASH_LOG_N=${logN} is for tests only: production hashes passwords at ${PRODUCTION_LOG_N} or more (unset it)`);
  }
  return logN;
}

let configuredLogN: number | undefined;
function currentLogN(): number {
  configuredLogN ??= hashLogNFromEnv();
  return configuredLogN;
}

/** For tests that need a hash to stay in flight (the queue's limits): the cost of new hashes from now on. */
export function setHashLogN(logN: number): void {
  configuredLogN = hashLogNFromEnv({ PASSWORD_HASH_LOG_N: String(logN), NODE_ENV: process.env.NODE_ENV });
}
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * The hashing queue. Each hash is ~0.4 s of one of libuv's 4 threads, so a queue without a bound
 * lets anyone who sends wrong passwords fast enough make every member's sign-in wait behind them.
 * At most `max` hashes run or wait in this process, and at most `perOwner` for one owner (a client
 * address); beyond that the call fails at once with 503 + Retry-After, costing nothing. Applies to
 * every hash in the process (sign-in, the payment step that stores a new member's hash, password
 * changes); callers that know the client pass it as `owner`.
 */
const queue = { max: 8, perOwner: 2, inFlight: 0, byOwner: new Map<string, number>() };

export function setHashQueueLimits(limits: { max: number; perOwner: number }): void {
  queue.max = limits.max;
  queue.perOwner = limits.perOwner;
}

/** Hashes running or waiting now (tests and metrics). */
export const hashesInFlight = (): number => queue.inFlight;

export class HashQueueFullError extends AppError {
  constructor() {
    // A slot frees every ~0.1 s (4 threads, 0.4 s each): one second is plenty.
    super('busy', 'the server is busy checking passwords, try again in a second', { 'Retry-After': '1' });
  }
}

async function queued<T>(owner: string | undefined, work: () => Promise<T>): Promise<T> {
  const mine = owner === undefined ? 0 : (queue.byOwner.get(owner) ?? 0);
  if (queue.inFlight >= queue.max || (owner !== undefined && mine >= queue.perOwner)) throw new HashQueueFullError();
  queue.inFlight += 1;
  if (owner !== undefined) queue.byOwner.set(owner, mine + 1);
  try {
    return await work();
  } finally {
    queue.inFlight -= 1;
    if (owner !== undefined) {
      const left = (queue.byOwner.get(owner) ?? 1) - 1;
      if (left > 0) queue.byOwner.set(owner, left);
      else queue.byOwner.delete(owner);
    }
  }
}

export interface HashOptions {
  /** Who asks (a client address): at most `perOwner` of their hashes run or wait at once. */
  owner?: string;
}

/** `scrypt$17$8$1$<salt b64>$<key b64>`: the parameters travel with the hash so they can be raised later. */
export function hashPassword(password: string, options: HashOptions = {}): Promise<string> {
  return queued(options.owner, () => hashUnqueued(password));
}

async function hashUnqueued(password: string): Promise<string> {
  const salt = randomBytes(16);
  const logN = currentLogN();
  const key = await derive(password, salt, logN, PARAMS.r, PARAMS.p);
  return `scrypt$${logN}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string, options: HashOptions = {}): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await queued(options.owner, () => derive(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p)));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Compared against when the username is unknown, so both cases take the same time. Made once per
// process outside the queue (a refusal must not be remembered as the decoy).
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashUnqueued(randomBytes(12).toString('hex'));
  return decoy;
}
