import { Secret, TOTP } from 'otpauth';

// The console's TOTP fallback (RFC 6238: SHA-1, 6 digits, 30 s), through `otpauth`.

const PERIOD = 30;

function totpOf(name: string, secret: string, issuer: string): TOTP {
  return new TOTP({ issuer, label: name, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** A fresh secret (160 bits, base32) and its otpauth:// enrolment URI for an authenticator app. */
export function newTotp(name: string, issuer: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(name, secret, issuer).toString() };
}

/** The code for `at` (tests, and an operator checking an enrolment). */
export function totpCode(secret: string, at: number): string {
  return totpOf('x', secret, 'x').generate({ timestamp: at });
}

/**
 * The time step a 6-digit `code` is good for at `at` (one step of clock drift either way), or
 * undefined when it is wrong. The caller refuses a step not after the last one accepted (replay).
 */
export function totpStep(secret: string, code: string, at: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf('x', secret, 'x').validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? undefined : Math.floor(at / 1000 / PERIOD) + delta;
}
