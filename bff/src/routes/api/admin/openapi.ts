import { messageAnswer } from '@media-site/contracts/member-api';
import {
  adminAdded,
  adminDisabled,
  adminEmailSet,
  adminEnabled,
  adminList,
  adminMe,
  adminPasskeys,
  adminPasskeysRevoked,
  adminRoleChanged,
  adminsRekeyed,
  adminTotpReset,
  attemptReconciled,
  auditPage,
  confirmation,
  dashboardData,
  memberDetail,
  memberEnabled,
  memberSearch,
  memberSessionsEnded,
  membershipExtended,
  ownPasskeys,
  passkeyAdded,
  passkeyRenamed,
  passkeyRevoked,
} from '@media-site/contracts/admin';
import { pricesAnswer, pricesBody, vodPriceAnswer, vodPriceBody } from '@media-site/contracts/admin-prices';
import { statsAnswer, statsQuery } from '@media-site/contracts/content-stats';
import { CONSOLE, CONSOLE_BODY, SENSITIVE, type Operation, type Resource } from '../openapi/operation';
import { adminName, addBody, emailBody, revokeBody, roleBody, totpBody } from './admin-accounts';
import { memberUsername } from './changes';
import { passkeyId } from './credentials';
import { dashboardQuery } from './dashboard';
import { attemptId, extendBody, reconcileBody } from './members';
import { disableBody } from './routes';
import {
  auditQuery,
  authenticationBody,
  memberSearchQuery,
  passkeyNameBody,
  registrationBody,
  totpConfirmBody,
  totpSignInBody,
} from './schema';
import { creationOptions, requestOptions } from './webauthn-schema';

const admin = { session: 'admin' } as const;
/** A sign-in POST: the console's origin, the per-address budget, a JSON body. */
const SIGN_IN = ['forbidden', 'rate_limited', 'bad_request', 'too_large', 'unsupported_media_type'] as const;

const signIn: Operation[] = [
  {
    method: 'post',
    path: '/api/admin/signin/totp',
    summary: 'Sign in with name and TOTP code (past a budget, with a solved proof of work)',
    body: totpSignInBody,
    answers: { 200: adminMe },
    errors: [...SIGN_IN, 'unauthenticated', 'challenge_required'],
  },
  {
    method: 'post',
    path: '/api/admin/signin/passkey/options',
    summary: 'A WebAuthn challenge for a passkey sign-in',
    answers: { 200: requestOptions },
    errors: SIGN_IN,
  },
  {
    method: 'post',
    path: '/api/admin/signin/passkey/verify',
    summary: 'Sign in with a passkey',
    body: authenticationBody,
    answers: { 200: adminMe },
    errors: [...SIGN_IN, 'unauthenticated'],
  },
  { method: 'post', path: '/api/admin/signout', summary: 'End this console session', ...admin, answers: { 204: null }, errors: CONSOLE },
  {
    method: 'get',
    path: '/api/admin/me',
    summary: 'Who is signed in to the console',
    ...admin,
    answers: { 200: adminMe },
    errors: CONSOLE,
  },
  {
    method: 'post',
    path: '/api/admin/confirm/totp',
    summary: 'Confirm it is you with a fresh code: sensitive changes for a few minutes',
    ...admin,
    body: totpConfirmBody,
    answers: { 200: confirmation },
    errors: [...SIGN_IN, 'unauthenticated'],
  },
  {
    method: 'post',
    path: '/api/admin/confirm/passkey/options',
    summary: "A WebAuthn challenge for one of the admin's passkeys",
    ...admin,
    answers: { 200: requestOptions },
    errors: [...SIGN_IN, 'unauthenticated', 'conflict'],
  },
  {
    method: 'post',
    path: '/api/admin/confirm/passkey/verify',
    summary: 'Confirm it is you with a passkey',
    ...admin,
    body: authenticationBody,
    answers: { 200: confirmation },
    errors: [...SIGN_IN, 'unauthenticated'],
  },
];

const passkeys: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/passkeys',
    summary: "The admin's own passkeys",
    ...admin,
    answers: { 200: ownPasskeys },
    errors: CONSOLE,
  },
  {
    method: 'post',
    path: '/api/admin/passkeys/options',
    summary: 'WebAuthn options to add a passkey',
    ...admin,
    answers: { 200: creationOptions },
    errors: SENSITIVE,
  },
  {
    method: 'post',
    path: '/api/admin/passkeys/verify',
    summary: 'Add a passkey',
    ...admin,
    body: registrationBody,
    answers: { 201: passkeyAdded },
    errors: SENSITIVE,
  },
  {
    method: 'post',
    path: '/api/admin/passkeys/:id/name',
    summary: 'Rename one of your passkeys',
    ...admin,
    params: { id: passkeyId },
    body: passkeyNameBody,
    answers: { 200: passkeyRenamed },
    errors: [...CONSOLE_BODY, 'not_found'],
  },
  {
    method: 'post',
    path: '/api/admin/passkeys/:id/revoke',
    summary: 'Revoke one of your passkeys',
    ...admin,
    params: { id: passkeyId },
    answers: { 200: passkeyRevoked },
    errors: [...SENSITIVE, 'not_found'],
  },
];

const members: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/audit',
    summary: 'The audit log, newest first',
    ...admin,
    query: auditQuery,
    answers: { 200: auditPage },
    errors: [...CONSOLE, 'bad_request'],
  },
  {
    method: 'get',
    path: '/api/admin/audit.csv',
    summary: 'The whole audit log as CSV',
    ...admin,
    answers: { 200: { mediaType: 'text/csv' } },
    errors: CONSOLE,
  },
  {
    method: 'get',
    path: '/api/admin/members',
    summary: 'Find members by part of the name or e-mail, or a payment reference',
    ...admin,
    query: memberSearchQuery,
    answers: { 200: memberSearch },
    errors: [...CONSOLE, 'bad_request'],
  },
  {
    method: 'get',
    path: '/api/admin/members/:username',
    summary: 'One member: account, membership, VODs, sessions, payments and webhooks',
    ...admin,
    params: { username: memberUsername },
    answers: { 200: memberDetail },
    errors: [...CONSOLE, 'bad_request', 'not_found'],
  },
  ...(
    [
      ['disable', 'Disable a member (their sessions and media access end)', disableBody, memberSessionsEnded],
      ['enable', 'Enable a disabled member', undefined, memberEnabled],
      ['signout-all', "End a member's sessions", undefined, memberSessionsEnded],
      ['extend', 'Extend a membership by whole days', extendBody, membershipExtended],
    ] as const
  ).map(([step, summary, body, answer]): Operation => ({
    method: 'post',
    path: `/api/admin/members/:username/${step}`,
    summary,
    ...admin,
    params: { username: memberUsername },
    ...(body ? { body } : {}),
    answers: { 200: answer },
    errors: [...CONSOLE_BODY, 'not_found', 'conflict'],
  })),
  {
    method: 'post',
    path: '/api/admin/members/:username/cancel-renewal',
    summary: "Cancel a membership's renewal at the card provider (audited; the member gets the confirmation mail)",
    ...admin,
    params: { username: memberUsername },
    answers: { 200: messageAnswer },
    errors: [...CONSOLE_BODY, 'not_found', 'conflict', 'rate_limited', 'payment_refused'],
  },
  {
    method: 'post',
    path: '/api/admin/payments/:id/resend-receipt',
    summary: "Send a copy of an approved payment's receipt to the member's current address",
    ...admin,
    params: { id: attemptId },
    answers: { 200: messageAnswer },
    errors: [...CONSOLE_BODY, 'not_found', 'conflict'],
  },
  {
    method: 'post',
    path: '/api/admin/payments/:id/reconcile',
    summary: 'Settle one stuck payment attempt as the provider shows it',
    ...admin,
    params: { id: attemptId },
    body: reconcileBody,
    answers: { 200: attemptReconciled },
    errors: [...CONSOLE_BODY, 'not_found', 'conflict'],
  },
  {
    method: 'get',
    path: '/api/admin/dashboard',
    summary: "The dashboard: each role's sections over the last days",
    ...admin,
    query: dashboardQuery,
    answers: { 200: dashboardData },
    errors: [...CONSOLE, 'bad_request'],
  },
  {
    method: 'get',
    path: '/api/admin/stats',
    summary: 'What sells: plays, finishes, downloads, saves, and (owner, support) sales and revenue, per item or model and per day',
    ...admin,
    query: statsQuery,
    answers: { 200: statsAnswer },
    errors: [...CONSOLE, 'bad_request', 'not_found'],
  },
];

const prices: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/prices',
    summary: 'What new members are charged: the price, the period and a trial, and who set them',
    ...admin,
    answers: { 200: pricesAnswer },
    errors: CONSOLE,
  },
  {
    method: 'put',
    path: '/api/admin/prices',
    summary: 'Set what new members are charged from now on (existing members keep their terms; audited as prices.set)',
    ...admin,
    body: pricesBody,
    answers: { 200: pricesAnswer },
    errors: [...CONSOLE_BODY, 'rate_limited'],
  },
  {
    method: 'get',
    path: '/api/admin/prices/vod',
    summary: 'The default VOD price: what a VOD ingested without a price of its own costs (null: none)',
    ...admin,
    answers: { 200: vodPriceAnswer },
    errors: CONSOLE,
  },
  {
    method: 'put',
    path: '/api/admin/prices/vod',
    summary: 'Set or clear the default VOD price for VODs ingested from now on (audited as prices.vod)',
    ...admin,
    body: vodPriceBody,
    answers: { 200: vodPriceAnswer },
    errors: [...CONSOLE_BODY, 'rate_limited'],
  },
];

const ownerChange = (path: string, summary: string, answer: Operation['answers'][200], body?: Operation['body']): Operation => ({
  method: 'post',
  path: `/api/admin/admins${path}`,
  summary,
  ...admin,
  ...(path.includes(':name') ? { params: { name: adminName } } : {}),
  ...(body ? { body } : {}),
  answers: { [path === '' ? 201 : 200]: answer },
  errors: [...SENSITIVE, 'not_found', 'conflict'],
});

const admins: Operation[] = [
  { method: 'get', path: '/api/admin/admins', summary: 'Every admin', ...admin, answers: { 200: adminList }, errors: CONSOLE },
  {
    method: 'get',
    path: '/api/admin/admins/:name/passkeys',
    summary: "An admin's passkeys",
    ...admin,
    params: { name: adminName },
    answers: { 200: adminPasskeys },
    errors: [...CONSOLE, 'bad_request', 'not_found'],
  },
  ownerChange('', 'Add an admin: the TOTP secret is shown once', adminAdded, addBody),
  ownerChange('/rekey', 'Re-seal every TOTP secret under the first ADMIN_SECRET_KEYS key', adminsRekeyed),
  ownerChange('/:name/disable', 'Disable an admin (their sessions end)', adminDisabled),
  ownerChange('/:name/enable', 'Enable an admin', adminEnabled),
  ownerChange('/:name/email', "Set an admin's notice e-mail (empty: none)", adminEmailSet, emailBody),
  ownerChange('/:name/passkeys/revoke', "Revoke an admin's passkeys (one, or all)", adminPasskeysRevoked, revokeBody),
  ownerChange('/:name/role', "Change an admin's role", adminRoleChanged, roleBody),
  ownerChange('/:name/totp', 'Give an admin a new TOTP secret, shown once', adminTotpReset, totpBody),
];

export const adminApi: Resource = {
  tag: 'admin',
  description:
    "The operator console's sign-in, passkeys, members, payments, prices, audit log, admins, dashboard and stats (ADMIN_ALLOWED_IPS only).",
  operations: [...signIn, ...passkeys, ...members, ...prices, ...admins],
};
