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
  type PasskeyRow,
  type PasskeySummary,
  type SignInOutcome,
} from '@media-site/db/admin';
import { BadRequestError, ConflictError } from '../../../errors';
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

export async function registerPasskey(
  ctx: Context,
  deps: AccountDeps,
  admin: AdminRow,
  response: RegistrationResponseJSON,
  name: string,
): Promise<PasskeySummary> {
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
  return addPasskey(deps.knex, {
    admin,
    name,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? [],
    now,
    site: deps.settings.site,
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

/** Options for a signed-in admin to confirm it is them with one of their own passkeys. */
export async function confirmationOptions(ctx: Context, deps: AccountDeps, admin: AdminRow) {
  const { rpID } = relyingParty(ctx, deps);
  const own = await passkeysOf(deps.knex, admin.id);
  if (own.length === 0) throw new ConflictError('you have no passkey to confirm with: enter a code from your authenticator app');
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
  });
  await saveChallenge(deps.knex, { challenge: options.challenge, purpose: 'confirm', adminId: admin.id, now: deps.now() });
  return options;
}

/**
 * Checks an assertion for a challenge issued for `purpose` (and, to confirm, for this admin): the
 * passkey it was made with when it verifies with user verification; undefined when it does not, or
 * when the credential or challenge is unknown. `signature` is the passkey when only the signature failed.
 */
async function verifiedPasskey(
  ctx: Context,
  deps: AccountDeps,
  response: AuthenticationResponseJSON,
  purpose: 'signin' | 'confirm',
  adminId?: number,
): Promise<{ passkey?: PasskeyRow; failed?: PasskeyRow }> {
  const { rpID, origins } = relyingParty(ctx, deps);
  const now = deps.now();
  const challenge = challengeOf(response.response.clientDataJSON);
  const passkey = await passkeyByCredentialId(deps.knex, response.id);
  if (!passkey || (adminId !== undefined && passkey.adminId !== adminId)) return {};
  if (!(await takeChallenge(deps.knex, { challenge, purpose, adminId, now }))) return {};
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
    if (result.verified) {
      await passkeyUsed(deps.knex, passkey.id, result.authenticationInfo.newCounter, now);
      return { passkey };
    }
  } catch {
    // A malformed or forged assertion: a failure.
  }
  return { failed: passkey };
}

/**
 * A passkey sign-in: an unknown credential or used challenge is refused; an assertion that does not
 * verify is audited as a failed sign-in. Wrong TOTP codes never stop a passkey.
 */
export async function passkeySignIn(ctx: Context, deps: AccountDeps, response: AuthenticationResponseJSON): Promise<SignInOutcome> {
  const { passkey, failed } = await verifiedPasskey(ctx, deps, response, 'signin');
  const key = passkey ?? failed;
  if (!key) return { ok: false, reason: 'refused' };
  const allowed = await passkeySignInAllowed(deps.knex, key.adminId);
  if (!allowed.ok) return allowed;
  const attempt = { address: ctx.ip, now: deps.now(), method: 'passkey' as const };
  if (!passkey) return signInFailed(deps.knex, allowed.admin.name, attempt);
  return signInSucceeded(deps.knex, allowed.admin, attempt);
}

/** A signed-in admin's own passkey, freshly used: true when it verified. */
export async function confirmWithPasskey(
  ctx: Context,
  deps: AccountDeps,
  admin: AdminRow,
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  return (await verifiedPasskey(ctx, deps, response, 'confirm', admin.id)).passkey !== undefined;
}
