import type { Context } from 'koa';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  addPasskey,
  passkeyByCredentialId,
  passkeySignInAllowed,
  passkeysOf,
  passkeyUsed,
  saveChallenge,
  signInFailed,
  signInSucceeded,
  takeChallenge,
  type AdminRow,
  type SignInOutcome,
} from '@media-site/db/admin';
import { BadRequestError } from '../../../errors';
import type { AccountDeps } from '../../../account/deps';
import { originOf } from '../../../security/origin';

// Passkeys through @simplewebauthn/server. The relying party is the site's configured public
// origin, SITE_URL: its host is the rpID and it (with ALLOWED_ORIGINS) the origin a browser may be
// on, whatever Host header a request carries, so a passkey made or used on another name is
// refused. Only outside production with SITE_URL left on a loopback address (`npm start`, tests)
// is the request's own Host taken instead. User verification is required: the authenticator's PIN
// or biometric is the second factor a passkey carries.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function relyingParty(ctx: Context, deps: AccountDeps): { rpID: string; origins: string[] } {
  const configured = new URL(deps.settings.site.url);
  const local = !deps.settings.admin.production && LOOPBACK.has(configured.hostname);
  const site = local ? originOf(`${ctx.protocol}://${ctx.get('Host')}`) : configured.origin;
  if (!site) throw new BadRequestError('no Host header');
  return { rpID: new URL(site).hostname, origins: [site, ...deps.settings.allowedOrigins] };
}

/** The challenge a browser signed, read from its clientDataJSON (checked again by the verify call). */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge === 'string') return data.challenge;
  } catch {
    /* below */
  }
  throw new BadRequestError('response.clientDataJSON: not a WebAuthn client data object');
}

export async function registrationOptions(ctx: Context, deps: AccountDeps, admin: AdminRow) {
  const { rpID } = relyingParty(ctx, deps);
  const existing = await passkeysOf(deps.knex, admin.id);
  const options = await generateRegistrationOptions({
    rpName: `${deps.settings.site.name} console`,
    rpID,
    userName: admin.name,
    userID: new TextEncoder().encode(`admin:${admin.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await saveChallenge(deps.knex, { challenge: options.challenge, purpose: 'register', adminId: admin.id, now: deps.now() });
  return options;
}

export async function registerPasskey(ctx: Context, deps: AccountDeps, admin: AdminRow, response: RegistrationResponseJSON): Promise<void> {
  const { rpID, origins } = relyingParty(ctx, deps);
  const now = deps.now();
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!(await takeChallenge(deps.knex, { challenge, purpose: 'register', adminId: admin.id, now })))
    throw new BadRequestError('the registration challenge is unknown, used or expired: ask for new options');
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch (err) {
    throw new BadRequestError(`the passkey did not verify: ${(err as Error).message.slice(0, 200)}`);
  }
  if (!verified.verified) throw new BadRequestError('the passkey did not verify');
  const { credential } = verified.registrationInfo;
  if (await passkeyByCredentialId(deps.knex, credential.id)) throw new BadRequestError('this passkey is registered already');
  await addPasskey(deps.knex, {
    admin,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    now,
    actor: admin.name,
    address: ctx.ip,
  });
}

export async function authenticationOptions(ctx: Context, deps: AccountDeps) {
  const { rpID } = relyingParty(ctx, deps);
  // Discoverable credentials: the browser offers the admin's passkeys for this site, no name asked.
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required' });
  await saveChallenge(deps.knex, { challenge: options.challenge, purpose: 'signin', now: deps.now() });
  return options;
}

/** A passkey sign-in: an unknown credential or used challenge is refused without counting; a bad assertion counts toward the lockout. */
export async function passkeySignIn(ctx: Context, deps: AccountDeps, response: AuthenticationResponseJSON): Promise<SignInOutcome> {
  const { rpID, origins } = relyingParty(ctx, deps);
  const now = deps.now();
  const challenge = challengeOf(response.response.clientDataJSON);
  const passkey = await passkeyByCredentialId(deps.knex, response.id);
  if (!passkey || !(await takeChallenge(deps.knex, { challenge, purpose: 'signin', now }))) return { ok: false, reason: 'refused' };
  const allowed = await passkeySignInAllowed(deps.knex, passkey.adminId, now);
  if (!allowed.ok) return allowed;
  const attempt = {
    address: ctx.ip,
    now,
    lockout: { failures: deps.settings.admin.lockoutFailures, lockMs: deps.settings.admin.lockoutMs },
    method: 'passkey' as const,
  };
  let counter: number | undefined;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: passkey.publicKey,
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    });
    if (result.verified) counter = result.authenticationInfo.newCounter;
  } catch {
    // A malformed or forged assertion: counted below as a failure.
  }
  if (counter === undefined) return signInFailed(deps.knex, allowed.admin, attempt);
  await passkeyUsed(deps.knex, passkey.id, counter, now);
  return signInSucceeded(deps.knex, allowed.admin, attempt);
}
