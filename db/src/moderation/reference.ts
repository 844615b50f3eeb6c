import { randomInt } from 'node:crypto';

// Crockford base32 without I, L, O, U: easy to read out on the phone or copy from an e-mail.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const REFERENCE_PATTERN = /^R-[0-9A-HJKMNP-TV-Z]{10}$/;

/** A report's public reference, e.g. R-7K3M9Q2X4B: unguessable enough that it can open the appeal form. */
export function newReference(): string {
  let out = 'R-';
  for (let i = 0; i < 10; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
