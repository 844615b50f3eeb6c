import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError, UnavailableError } from '../../../errors';
import { chargeTerms, currentOffer } from '@media-site/db/payments';
import { OFFER_CHANGED } from '@media-site/contracts/membership-offer';
import type { ChargeTerms } from '../../../provider/client';
import { ProviderAuthError } from '../../../provider/oauth';
import { hashPassword } from '@media-site/db/members';
import { enforceRateLimit } from '../../../security/rate-limit';
import type { AccountDeps } from '../../../account/deps';
import { accessWithdrawn, entitlementsOf } from '../../../account/entitlements';
import { memberByUsername, vodByPath, type MemberRow } from '../../../account/repository';
import {
  attemptById,
  attemptByToken,
  insertAttempt,
  markUnknown,
  reservationTaken,
  settleApproved,
  settleDeclined,
  settleFailed,
  type NewAttempt,
} from '@media-site/db/payments';
import { outcomeOf, type PaymentOutcome } from './outcome';
import type { FrontendTokenBody, ProcessPaymentBody } from './schema';
import {
  bindingOf,
  issueHandle,
  nonceHash,
  recordStart,
  spendHandle,
  startByHash,
  TokenClaimedError,
  type PaymentStart,
} from './repository';
import { countSettlement, settleOptionsOf } from './settlement';
import type { BackendHandle, FrontendToken, UsernameAvailability } from '@media-site/contracts/member-api';

const HANDLE_TTL_MS = 15 * 60_000;
// Spec §9: a payment token lives 30 hours and may be used 3 times.
const TOKEN_TIME_TO_LIVE = 30;
const TOKEN_VALID_USES = 3;

async function providerBearer(source: { token(): Promise<{ accessToken: string }> }): Promise<string> {
  try {
    return (await source.token()).accessToken;
  } catch (err) {
    if (err instanceof ProviderAuthError) throw new UnavailableError('the card processor is unavailable, try again shortly');
    throw err;
  }
}

async function vodToBuy(deps: AccountDeps, member: MemberRow, path: string) {
  // A purchase would charge the card and give nothing: entitlements stay withdrawn until `member enable`.
  if (accessWithdrawn(member)) throw new ForbiddenError('media access has been withdrawn for this account; contact support');
  const vod = await vodByPath(deps.knex, path);
  if (!vod) throw new NotFoundError('no such VOD');
  if ((await entitlementsOf(deps.knex, member)).vodPaths.includes(vod.path)) throw new ConflictError('this VOD is already bought');
  return vod;
}

const membershipReservation = (username: string) => `u:${username.toLowerCase()}`;

/**
 * Step 1: checks the desired username and password (buying a VOD: that the visitor is signed in
 * and the VOD can be bought; the session is the credential, so any username or password sent is
 * ignored), then hands the browser the provider's frontend bearer, which can only create payment
 * tokens, with where to create them.
 */
export async function frontendToken(
  deps: AccountDeps,
  input: FrontendTokenBody,
  member: MemberRow | undefined,
): Promise<{ nonce: string; answer: FrontendToken }> {
  let start: PaymentStart;
  if (input.vod !== undefined) {
    if (!member) throw new UnauthenticatedError('sign in to buy a VOD');
    const vod = await vodToBuy(deps, member, input.vod);
    start = { username: null, memberId: member.id, vodId: vod.id };
  } else {
    if (input.username === undefined) throw new BadRequestError('username: required');
    if ((await memberByUsername(deps.knex, input.username)) || (await reservationTaken(deps.knex, membershipReservation(input.username)))) {
      throw new ConflictError('this username is taken');
    }
    start = { username: input.username, memberId: null, vodId: null };
  }
  const s = deps.settings;
  const bearer = await providerBearer(deps.provider.frontendBearer);
  // The nonce goes into this browser's cookie only: steps 3 and 4 need it.
  const nonce = await recordStart(deps.knex, start, deps.now());
  return {
    nonce,
    answer: {
      access_token: bearer,
      token_type: 'bearer',
      providerBase: s.providerPublicBase,
      clientAccnum: s.clientAccnum,
      clientSubacc: s.clientSubacc,
      timeToLive: TOKEN_TIME_TO_LIVE,
      validNumberOfUse: TOKEN_VALID_USES,
    },
  };
}

const NOT_STARTED_HERE = 'this payment was not started in this browser, or too long ago; start again';

/**
 * Step 3: makes sure we hold a backend bearer, and gives the browser only a single-use handle,
 * bound to its step-1 record and to the payment token it made at step 2. A payment token is
 * claimed once: another browser that learns it can neither claim it nor spend it.
 */
export async function backendHandle(deps: AccountDeps, nonce: string | undefined, paymentToken: string): Promise<BackendHandle> {
  const start = nonce ? await startByHash(deps.knex, nonceHash(nonce), deps.now()) : undefined;
  if (!start) throw new ForbiddenError(NOT_STARTED_HERE);
  await providerBearer(deps.provider.backendBearer);
  let handle: string;
  try {
    handle = await issueHandle(deps.knex, deps.now(), HANDLE_TTL_MS, { startHash: start.nonce_hash, paymentToken });
  } catch (err) {
    if (err instanceof TokenClaimedError) throw new ForbiddenError('this payment token belongs to another checkout; start again');
    throw err;
  }
  return { access_token: handle, token_type: 'handle', expires_in: HANDLE_TTL_MS / 1000 };
}

/** A concurrent call for the same payment token is settling it: wait for its outcome (bounded). */
async function awaitOutcome(deps: AccountDeps, paymentToken: string): Promise<PaymentOutcome> {
  const deadline = Date.now() + deps.settings.chargeTimeoutMs + 5000;
  for (;;) {
    const attempt = await attemptByToken(deps.knex, paymentToken);
    if ((attempt && attempt.status !== 'pending') || Date.now() > deadline) {
      if (!attempt) throw new ForbiddenError('this payment session has expired; start again');
      return outcomeOf(attempt);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function planFor(
  deps: AccountDeps,
  input: ProcessPaymentBody,
  member: MemberRow | undefined,
  passwordHash: string | null,
  now: number,
): Promise<{ attempt: NewAttempt; terms: ChargeTerms }> {
  const s = deps.settings;
  if (input.vod !== undefined) {
    if (!member) throw new UnauthenticatedError('sign in to buy a VOD');
    const vod = await vodToBuy(deps, member, input.vod);
    return {
      attempt: {
        paymentToken: input.paymentToken,
        kind: 'vod',
        vodId: vod.id,
        memberId: member.id,
        username: member.username,
        passwordHash: null,
        email: member.email,
        amount: vod.price,
        currencyCode: s.currencyCode,
        reservation: `v:${member.id}:${vod.id}`,
        now,
      },
      terms: {
        initialPrice: vod.price,
        initialPeriod: s.vodPeriodDays,
        recurringPrice: '0.00',
        recurringPeriod: 0,
        rebills: 0,
        currencyCode: s.currencyCode,
        passThroughInfo: [],
      },
    };
  }
  const { username, email } = input.formData;
  if (!username || passwordHash === null) throw new ForbiddenError('username and password are required');
  if (await memberByUsername(deps.knex, username)) throw new ConflictError('this username is taken');
  // The offer in force now (the console's Prices, else the configuration): its numbers are charged
  // and recorded with the attempt, so the member keeps the terms they were shown.
  const offer = await currentOffer(deps.knex, s.membership);
  // Changed since the page showed its terms (an owner saved new prices meanwhile): refused before
  // anything is recorded or charged, so nobody is charged terms they were not shown.
  if (input.offerId !== undefined && input.offerId !== offer.id) throw new ConflictError(OFFER_CHANGED);
  const terms = chargeTerms(offer);
  return {
    attempt: {
      paymentToken: input.paymentToken,
      kind: 'membership',
      vodId: null,
      memberId: null,
      username,
      passwordHash,
      email,
      amount: terms.initialPrice,
      currencyCode: s.currencyCode,
      reservation: membershipReservation(username),
      now,
      terms: { periodDays: terms.initialPeriod, recurringPrice: terms.recurringPrice, recurringPeriodDays: terms.recurringPeriod },
    },
    terms: { ...terms, rebills: s.membership.rebills, currencyCode: s.currencyCode, passThroughInfo: [] },
  };
}

/**
 * Step 4 goes on only with the pairing step 1 and 3 recorded: the handle names this browser's
 * step-1 nonce and this payment token, and the step-1 record names this username (or this
 * member and VOD). Checked before any hashing or charging; the bindings never change once written.
 */
async function checkBinding(
  deps: AccountDeps,
  input: ProcessPaymentBody,
  member: MemberRow | undefined,
  nonce: string | undefined,
): Promise<void> {
  const binding = await bindingOf(deps.knex, input.accessToken);
  if (!binding) throw new ForbiddenError('this payment session has expired; start again');
  if (!nonce || nonceHash(nonce) !== binding.startHash)
    throw new ForbiddenError('this payment was started in another browser; start again');
  if (binding.paymentToken !== input.paymentToken) throw new ForbiddenError('this payment token belongs to another checkout; start again');
  const start = await startByHash(deps.knex, binding.startHash, deps.now());
  if (!start) throw new ForbiddenError(NOT_STARTED_HERE);
  if (input.vod !== undefined) {
    const vod = await vodByPath(deps.knex, input.vod);
    // A VOD gone since step 1 is planFor's 404, not a binding question.
    if (!member || start.member_id !== member.id || (vod && start.vod_id !== vod.id))
      throw new ForbiddenError('this payment was started for another member or VOD; start again');
    return;
  }
  const username = input.formData.username;
  if (start.username === null || username === undefined || start.username.toLowerCase() !== username.toLowerCase()) {
    throw new ForbiddenError('this payment was started for another username; start again');
  }
}

export interface SettledPayment {
  outcome: PaymentOutcome;
  /** Set on the one call that spent the handle and saw the charge approved: sign this browser in as them. */
  signInMemberId?: number;
}

/** `GET /api/username-available?u=`: free for a new membership (no member, no open or approved attempt). */
export async function usernameAvailable(deps: AccountDeps, username: string, address: string): Promise<UsernameAvailability> {
  await enforceRateLimit(
    deps.limiter,
    `uname:ip:${address}`,
    deps.settings.usernameChecksPerMinute,
    60,
    'too many username checks, wait a minute',
  );
  const taken =
    (await memberByUsername(deps.knex, username)) !== undefined || (await reservationTaken(deps.knex, membershipReservation(username)));
  return { username, available: !taken };
}

/**
 * Step 4, exactly once per payment token: the attempt is recorded (unique token, unique
 * reservation) before the one charge call; repeats and concurrent calls get the first outcome.
 */
export async function processPayment(
  deps: AccountDeps,
  input: ProcessPaymentBody,
  member: MemberRow | undefined,
  nonce: string | undefined,
): Promise<SettledPayment> {
  const existing = await attemptByToken(deps.knex, input.paymentToken);
  if (existing) return { outcome: existing.status === 'pending' ? await awaitOutcome(deps, input.paymentToken) : outcomeOf(existing) };
  await checkBinding(deps, input, member, nonce);
  // Terms changed since the page showed them: refused before the handle is spent (planFor checks
  // again against the offer it charges).
  if (
    input.vod === undefined &&
    input.offerId !== undefined &&
    (await currentOffer(deps.knex, deps.settings.membership)).id !== input.offerId
  )
    throw new ConflictError(OFFER_CHANGED);
  // Hashed before the handle is spent, under the process-wide hashing bound: a full queue answers
  // 503 busy and the browser can retry with the same handle. No per-address share here: a double
  // submit races identical calls from one address, and step 4 is already bound to one browser's
  // steps 1 and 3 and limited per address before its body is read.
  const password = input.vod === undefined ? input.formData.password : undefined;
  const passwordHash = password === undefined ? null : await hashPassword(password);
  const spent = await spendHandle(deps.knex, input.accessToken, input.paymentToken, deps.now());
  if (spent === 'spent-on-same-token') return { outcome: await awaitOutcome(deps, input.paymentToken) };
  if (spent === 'invalid') throw new ForbiddenError('this payment session has expired; start again');

  const { attempt, terms } = await planFor(deps, input, member, passwordHash, deps.now());
  let id: number;
  try {
    id = await insertAttempt(deps.knex, attempt);
  } catch (err) {
    if (await attemptByToken(deps.knex, input.paymentToken)) return { outcome: await awaitOutcome(deps, input.paymentToken) };
    if (await reservationTaken(deps.knex, attempt.reservation))
      throw new ConflictError('a payment for this is already in progress or done');
    throw err;
  }
  const passThroughInfo = [
    { name: 'attempt', value: String(id) },
    { name: 'username', value: attempt.username },
  ];
  await charge(deps, id, input.paymentToken, { ...terms, passThroughInfo });
  const settled = await attemptById(deps.knex, id);
  if (!settled) throw new Error(`attempt ${id} vanished`);
  // Only this call spent the handle on this payment token (a repeat, a concurrent call or anyone
  // who learns the token gets the outcome but no session): the browser that ran the chain.
  const signIn = settled.status === 'approved' && settled.member_id !== null ? settled.member_id : undefined;
  return { outcome: outcomeOf(settled), ...(signIn === undefined ? {} : { signInMemberId: signIn }) };
}

async function charge(deps: AccountDeps, id: number, paymentToken: string, terms: ChargeTerms): Promise<void> {
  const { knex, logger, settings } = deps;
  let result;
  try {
    result = await deps.provider.charge(paymentToken, terms);
  } catch (err) {
    // No bearer means no charge call was made.
    if (err instanceof ProviderAuthError) {
      await settleFailed(knex, id, 'no provider bearer', deps.now(), countSettlement);
      return;
    }
    await markUnknown(knex, id, 'charge call failed', deps.now(), countSettlement);
    throw err;
  }
  const now = deps.now();
  switch (result.kind) {
    case 'approved':
      await settleApproved(knex, id, result.subscriptionId, now, settleOptionsOf(settings));
      logger.info({ attempt: id }, 'payment approved');
      return;
    case 'declined':
      await settleDeclined(knex, id, `${result.declineCode} ${result.declineText}`.trim(), now, countSettlement);
      logger.info({ attempt: id, declineCode: result.declineCode }, 'payment declined');
      return;
    case 'rejected':
      await settleFailed(knex, id, `${result.status} ${result.errorCode} ${result.message}`, now, countSettlement);
      logger.warn({ attempt: id, status: result.status, errorCode: result.errorCode }, 'provider refused the charge request');
      return;
    default:
      await markUnknown(knex, id, result.reason, now, countSettlement);
      logger.warn({ attempt: id, reason: result.reason }, 'payment outcome unknown; settle by webhook or reconciliation');
  }
}
