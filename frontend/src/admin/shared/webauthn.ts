import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { adminApi, AdminApiError, type Me, type PasskeyRow } from './api';

// Passkeys (WebAuthn) for the console, through @simplewebauthn/browser: the API makes and checks
// the challenges; the browser's authenticator (with its PIN or biometric) answers them.

/** The browser's refusal (cancelled, no passkey, not supported) as an AdminApiError-like text. */
function browserFailure(err: unknown): never {
  if (err instanceof AdminApiError) throw err;
  const cancelled = err instanceof Error && err.name === 'NotAllowedError';
  const text = cancelled
    ? 'The passkey request was cancelled or timed out.'
    : err instanceof WebAuthnError || err instanceof Error
      ? `The browser refused the passkey: ${err.message}`
      : 'The browser refused the passkey.';
  throw new AdminApiError(0, text);
}

export async function signInWithPasskey(): Promise<Me> {
  try {
    const optionsJSON = await adminApi.passkeySignInOptions();
    return await adminApi.passkeySignIn(await startAuthentication({ optionsJSON }));
  } catch (err) {
    browserFailure(err);
  }
}

export async function addPasskey(name: string): Promise<PasskeyRow> {
  try {
    const optionsJSON = await adminApi.passkeyAddOptions();
    return (await adminApi.passkeyAdd(await startRegistration({ optionsJSON }), name)).passkey;
  } catch (err) {
    browserFailure(err);
  }
}

/** A signed-in admin confirms it is them with one of their passkeys. */
export async function confirmWithPasskey(): Promise<void> {
  try {
    const optionsJSON = await adminApi.confirmPasskeyOptions();
    await adminApi.confirmPasskey(await startAuthentication({ optionsJSON }));
  } catch (err) {
    browserFailure(err);
  }
}
