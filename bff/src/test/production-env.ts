import { randomBytes } from 'node:crypto';

/**
 * What an operator's production environment amounts to, for tests that start from it and break one
 * thing. Every value is made here at run time, as an operator would (`openssl rand`): one written
 * into the repository would be a published value production must refuse (contracts/src/secret-policy.test.ts
 * fails on any committed value the policy accepts).
 */
const base64 = (bytes: number) => randomBytes(bytes).toString('base64');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export const OPERATOR_KEYS = {
  a: base64(48),
  b: hex(32),
  /** SIGNIN_KEYS: a ring of its own, never equal to a media key. */
  signin: base64(48),
  /** ADMIN_SECRET_KEYS: seals admins' TOTP secrets, a ring of its own too. */
  admin: base64(48),
  /** WEBHOOK_PROXY_SECRET: what nginx's webhook location adds for the bff. */
  webhookProxy: hex(32),
};

export const OPERATOR_PROVIDER = {
  CCBILL_BASE_URL: 'https://api.ccbill.com',
  CCBILL_PUBLIC_BASE_URL: 'https://api.ccbill.com',
  CCBILL_CLIENT_ACCNUM: '945123',
  CCBILL_CLIENT_SUBACC: '0',
  CCBILL_FRONTEND_APP_ID: hex(8),
  CCBILL_FRONTEND_SECRET: base64(18),
  CCBILL_BACKEND_APP_ID: hex(8),
  CCBILL_BACKEND_SECRET: base64(18),
};
