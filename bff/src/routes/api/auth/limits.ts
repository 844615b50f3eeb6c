import type { Device } from '../../../security/device-cookie';
import type { AccountDeps } from '../../../account/deps';

/** Where a sign-in attempt comes from: the client address, and the device cookie when it verified. */
export interface SignInClient {
  address: string;
  device: Device | undefined;
}

export const ACCOUNT_WINDOW_SECONDS = 15 * 60;

/** How an attempt ended: only a wrong password spends budget. */
export type AttemptOutcome = 'failed' | 'succeeded' | 'unchecked';

export interface SignInAttempt {
  /** A per-username budget is spent: the attempt goes on only with a proof of work (security/altcha.ts). */
  needsProof: boolean;
  settle(outcome: AttemptOutcome): Promise<void>;
}

interface Budget {
  key: string;
  /** Forget the whole count on success (a budget only this client spends), or give back this attempt only. */
  onSuccess: 'reset' | 'refund';
}

/**
 * Counted before the password is checked, whether or not the username exists (a refused attempt
 * costs no scrypt and tells nothing), and given back unless the password turned out wrong: budgets
 * count failures. With the defaults (10 and 10):
 * - one address: 10 attempts a minute, whatever the usernames (a hard 429, counted by the route
 *   before the body is read: auth/routes.ts);
 * - one address and one username: 10 failures per 15 minutes, reset by a success;
 * - one username from a browser that signed in as it before (device cookie): 10 failures per 15
 *   minutes for that device, reset by a success, untouched by anyone else;
 * - one username from every other browser together: 10 failures per 15 minutes (a success gives
 *   its own attempt back, never the others').
 * Past any of the last three, an attempt needs a solved proof-of-work challenge (about a second of
 * the browser's CPU), not a 429: the owner can always get in from a new browser, while a guesser
 * pays that second for every guess beyond the ~2 × 10 free ones in any 15 minutes.
 */
export async function chargeSignInAttempt(
  deps: AccountDeps,
  username: string,
  client: SignInClient,
  scope: { prefix: string; perAccount: number } = { prefix: 'login', perAccount: deps.settings.loginPerAccount },
): Promise<SignInAttempt> {
  const { limiter } = deps;
  const user = username.toLowerCase();
  const { prefix, perAccount } = scope;
  const known = client.device?.username === user;
  const budgets: Budget[] = [
    { key: `${prefix}:pair:${client.address}|${user}`, onSuccess: 'reset' },
    known ? { key: `${prefix}:device:${client.device?.id}`, onSuccess: 'reset' } : { key: `${prefix}:user:${user}`, onSuccess: 'refund' },
  ];
  const left = await Promise.all(budgets.map((b) => limiter.hit(b.key, perAccount, ACCOUNT_WINDOW_SECONDS)));
  if (!known && left[1] === false) {
    deps.logger.warn(
      { account: user, scope: prefix },
      'sign-in needs a proof of work: the account spent its budget for unknown browsers (guessing from many addresses?)',
    );
  }
  return {
    needsProof: left.includes(false),
    async settle(outcome) {
      if (outcome === 'failed') return;
      await Promise.all(
        budgets.map((b) =>
          outcome === 'succeeded' && b.onSuccess === 'reset'
            ? limiter.reset(b.key, perAccount, ACCOUNT_WINDOW_SECONDS)
            : limiter.refund(b.key, perAccount, ACCOUNT_WINDOW_SECONDS),
        ),
      );
    },
  };
}
