import { createHash, randomBytes } from 'node:crypto';

// The links of password resets and e-mail changes: 32 random bytes, base64url, of which only the
// SHA-256 is stored (password_resets, email_changes; repository.ts): a leaked row cannot be opened as a link.

export const LINK_TOKEN = /^[\w-]{43}$/;

export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: linkTokenHash(token) };
}
