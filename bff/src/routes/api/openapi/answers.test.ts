import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { totpCode } from '@media-site/db/admin';
import { enqueue } from '@media-site/db/encode';
import { testBackends } from '@media-site/db/testing';
import { answerCheck } from '../../../test/answer-check';
import { ORIGIN, VOD, pay, sendWebhook, signIn, startAccountKit, subscriptionIdOf, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';

// What the document says each route answers is what it sends: a walk through the member and console
// routes on both databases (mysql2 hands back BIGINT and DECIMAL columns as strings, a shape the
// types cannot see), every answer checked against its operation (test/answer-check.ts). The catalog
// routes' answers are contract.test.ts's.

const KEY = `k1:${randomBytes(32).toString('base64url')}`;
const MINUTE = 60_000;

/** Routes this walk does not answer with a success, and why. */
const NOT_WALKED = [
  // The link's token arrives by mail.
  'POST /api/account/email/confirm',
  'POST /api/password-reset/confirm',
  // A passkey needs an authenticator (webauthn.test.ts's); these answered 4xx here, checked as errors.
  'POST /api/admin/signin/passkey/verify',
  'POST /api/admin/confirm/passkey/options',
  'POST /api/admin/confirm/passkey/verify',
  'POST /api/admin/passkeys/verify',
  'POST /api/admin/passkeys/:id/name',
  'POST /api/admin/passkeys/:id/revoke',
  'POST /api/admin/admins/:name/passkeys/revoke',
  // Only a stuck attempt may be reconciled (members.test.ts); this one answered 409, checked as an error.
  'POST /api/admin/payments/:id/reconcile',
  // The member cancelled their renewal themselves above: the console's cancel (members.test.ts) answered 409, checked as an error.
  'POST /api/admin/members/:username/cancel-renewal',
];

describe.each(testBackends())('every answer is the shape the OpenAPI document describes (%s)', (backend) => {
  const checker = answerCheck();
  let kit: AccountKit;
  let ingestRoot: string;
  let request: ReturnType<typeof supertest>;
  let clock = 0;
  const tick = () => kit.setClockAhead((clock += MINUTE));

  const member = { cookie: '' };
  const admin = { cookie: '', secret: '' };
  const post = (path: string, cookie = admin.cookie) => request.post(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const get = (path: string, cookie = admin.cookie) => request.get(path).set('Sec-Fetch-Site', 'same-origin').set('Cookie', cookie);
  const put = (path: string, cookie: string) => request.put(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const del = (path: string, cookie: string) => request.delete(path).set('Origin', ORIGIN).set('Cookie', cookie);

  beforeAll(async () => {
    ingestRoot = await mkdtemp(join(tmpdir(), 'answers-ingest-'));
    await mkdir(join(ingestRoot, 'batch'));
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      ADMIN_SECRET_KEYS: KEY,
      ADMIN_CONFIRM_MINUTES: '30',
      INGEST_ROOT: ingestRoot,
    });
    // First in the chain, so it sees the answer the error middleware wrote.
    kit.app.middleware.unshift(checker.middleware);
    request = supertest(kit.app.callback());
    kit = { ...kit, request };
    const added = await runOpsCaptured(['admin', 'add', 'oa_boss', '--role', 'owner'], {
      env: { USER: 'tester', ADMIN_SECRET_KEYS: KEY },
      knex: kit.db.knex,
      now: () => kit.deps.now(),
    });
    expect(added.code, added.err).toBe(0);
    admin.secret = /secret: (\S+)/.exec(added.out)![1]!;
  });
  afterAll(async () => {
    await kit?.close();
    if (ingestRoot) await rm(ingestRoot, { recursive: true, force: true });
  });

  it('a member joins, buys a VOD, plays, reports and manages the account', async () => {
    const joined = await pay(kit, { username: 'oa_member' });
    expect(joined.result.status).toBe(200);
    member.cookie = cookieHeader(setCookies(joined.result));
    const bought = await pay(kit, { username: 'oa_member', vod: VOD.path, cookie: member.cookie, credentials: false });
    expect(bought.result.status).toBe(200);
    ({ cookie: member.cookie } = await signIn(kit, 'oa_member'));

    for (const path of ['/api/me', '/api/account', '/api/positions', `/api/playback/vod/${VOD.path}`, `/api/positions/vod/${VOD.path}`]) {
      expect((await get(path, member.cookie)).status, path).toBe(200);
    }
    const account = await get('/api/account', member.cookie);
    const download = account.body.vodItems[0].download as string;
    expect((await get(`/api/download-link?path=${encodeURIComponent(download)}`, member.cookie)).status).toBe(200);
    expect((await get('/api/login-challenge')).status).toBe(200);
    expect((await get('/api/payment-config')).status).toBe(200);
    expect((await get('/api/username-available?u=oa_nobody')).status).toBe(200);
    expect((await get('/api/me', '')).status).toBe(401);
    expect((await put(`/api/positions/vod/${VOD.path}`, member.cookie).send({ seconds: 5 })).status).toBe(200);
    expect((await del(`/api/positions/vod/${VOD.path}`, member.cookie)).status).toBe(204);
    expect((await put(`/api/saved/vod/${VOD.path}`, member.cookie)).status).toBe(200);
    expect((await get('/api/saved', member.cookie)).status).toBe(200);
    expect((await get('/api/saved/releases', member.cookie)).status).toBe(200);
    expect((await del(`/api/saved/vod/${VOD.path}`, member.cookie)).status).toBe(204);
    expect((await put('/api/account/release-mail', member.cookie)).status).toBe(200);
    expect((await del('/api/account/release-mail', member.cookie)).status).toBe(200);
    // A release mail's unsubscribe link (its token, as the digest writes it).
    const token = randomBytes(32).toString('base64url');
    const owner = await kit.db.knex('members').where({ username: 'oa_member' }).first('id');
    await kit.db
      .knex('release_mail_links')
      .insert({ token_hash: createHash('sha256').update(token).digest('hex'), member_id: owner.id, created_at: 1 });
    expect((await get(`/api/mail/unsubscribe?token=${token}`, '')).status).toBe(303);
    const unsubscribed = await request.post(`/api/mail/unsubscribe?token=${token}`).type('form').send('List-Unsubscribe=One-Click');
    expect(unsubscribed.status).toBe(200);
    const report = { events: [{ kind: 'start', rendition: 720, ms: 400 }] };
    expect((await post('/api/player/reports', member.cookie).send(report)).status).toBe(204);
    expect((await post(`/api/activity/vod/${VOD.path}`, member.cookie).send({ event: 'play' })).status).toBe(204);

    expect((await post('/api/account/cancel-renewal', member.cookie)).status).toBe(200);
    const subscriptionId = await subscriptionIdOf(kit, 'oa_member');
    expect((await sendWebhook(kit, 'Cancellation', { subscriptionId, transactionId: 'oa-cancel', reason: 'test' })).status).toBe(200);

    expect(
      (await post('/api/account/email', member.cookie).send({ email: 'oa@example.com', currentPassword: 'correct horse' })).status,
    ).toBe(202);
    expect((await post('/api/password-reset', '').send({ login: 'oa_member' })).status).toBe(202);
    const changed = await post('/api/account/password', member.cookie).send({
      currentPassword: 'correct horse',
      newPassword: 'new horse 123',
    });
    expect(changed.status).toBe(204);
    member.cookie = cookieHeader(setCookies(changed));
    expect((await post('/api/logout', member.cookie)).status).toBe(204);
    ({ cookie: member.cookie } = await signIn(kit, 'oa_member', 'new horse 123'));
    expect((await post('/api/account/sign-out-everywhere', member.cookie)).status).toBe(204);
  });

  it('an owner signs in to the console and walks every screen', async () => {
    tick();
    const signedIn = await post('/api/admin/signin/totp', '').send({ name: 'oa_boss', code: totpCode(admin.secret, kit.deps.now()) });
    expect(signedIn.status).toBe(200);
    admin.cookie = cookieHeader(setCookies(signedIn).filter((c) => c.startsWith('admin_sid=')));
    tick();
    expect((await post('/api/admin/confirm/totp').send({ code: totpCode(admin.secret, kit.deps.now()) })).status).toBe(200);
    expect((await post('/api/admin/signin/passkey/options', '')).status).toBe(200);
    expect((await post('/api/admin/confirm/passkey/options')).status).toBe(409);
    expect((await post('/api/admin/passkeys/options')).status).toBe(200);
    expect((await post('/api/admin/passkeys/7/name').send({ name: 'nothing' })).status).toBe(404);

    for (const path of [
      '/api/admin/me',
      '/api/admin/audit',
      '/api/admin/audit.csv',
      '/api/admin/members?q=oa',
      '/api/admin/members/oa_member',
      '/api/admin/dashboard?days=7',
      '/api/admin/content?q=vod',
      '/api/admin/reports',
      '/api/admin/admins',
      '/api/admin/admins/oa_boss/passkeys',
      '/api/admin/passkeys',
      '/api/admin/scheduled',
      '/api/admin/ingests',
      '/api/admin/queues',
      '/api/admin/prices',
      '/api/admin/prices/vod',
      '/api/admin/stats',
      '/api/admin/stats?by=model&sort=revenue',
      '/api/site',
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  it('support, moderation and content changes from the console', async () => {
    const item = `/vod/${VOD.path}`;
    // An encode that ran (the Content screen shows it, and a re-encode needs one).
    await enqueue(kit.db.knex, { type: 'vod', path: VOD.path, sourceSig: 'original-1' }, kit.deps.now());
    await kit.db.knex('media_jobs').where({ path: VOD.path }).update({ status: 'done', progress: 1 });
    for (const [path, body] of [
      ['/api/admin/members/oa_member/extend', { days: 1, reason: 'goodwill' }],
      ['/api/admin/members/oa_member/disable', { reason: 'checking' }],
      ['/api/admin/members/oa_member/enable', {}],
      ['/api/admin/members/oa_member/signout-all', {}],
      ['/api/admin/content/edit', { path: item, title: 'VOD uno' }],
      ['/api/admin/content/reencode', { path: item }],
      ['/api/admin/takedowns', { path: item, reason: 'checking' }],
      ['/api/admin/restores', { path: item, reason: 'checked' }],
      ['/api/admin/content/schedule', { path: item, at: '2099-01-01T00:00:00Z' }],
      ['/api/admin/teasers', { path: item, teased: true }],
      ['/api/admin/content/schedule', { path: item, at: null }],
      ['/api/admin/content/bulk', { action: 'unschedule', paths: [item, '/vod/nope'], preview: true }],
    ] as const) {
      const res = await post(path).send(body);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    }
    const attempt = await kit.db.knex('payment_attempts').where({ username: 'oa_member' }).first('id');
    expect((await post(`/api/admin/payments/${attempt.id}/reconcile`).send({ action: 'approve' })).status).toBe(409);
    expect((await post(`/api/admin/payments/${attempt.id}/resend-receipt`)).status).toBe(200);
    expect((await post('/api/admin/members/oa_member/cancel-renewal')).status).toBe(409);

    const queued = await post('/api/admin/ingests').send({ folder: 'batch' });
    expect(queued.status).toBe(202);
    expect((await get(`/api/admin/ingests/${queued.body.run.id}`)).status).toBe(200);
    // The queue screen's verbs on that run: pause and resume, cancel it, retry it, retry all.
    for (const path of ['/pause', '/resume', `/jobs/${queued.body.run.id}/cancel`, `/jobs/${queued.body.run.id}/retry`, '/retry-failed'])
      expect((await post(`/api/admin/queues/ingest${path}`)).status, path).toBe(200);
    // Maintenance on and off again (the paused routes' 503 is maintenance.test.ts's).
    for (const on of [true, false]) expect((await post('/api/admin/maintenance').send({ on, message: 'Back soon.' })).status).toBe(200);
    const trial = { price: '14.99', periodDays: 30, trial: { price: '1.95', days: 2 } };
    expect((await put('/api/admin/prices', admin.cookie).send(trial)).status).toBe(200);
    expect((await put('/api/admin/prices/vod', admin.cookie).send({ price: '6.50' })).status).toBe(200);

    const report = async () => {
      const res = await post('/api/reports', '').send({ content: item, reason: 'other', details: 'please look' });
      expect(res.status).toBe(201);
      expect((await get(`/api/reports/${res.body.reference}`, '')).status).toBe(200);
      return res.body.reference as string;
    };
    const [first, second] = [await report(), await report()];
    for (const reference of [first, second]) {
      expect((await post(`/api/admin/reports/${reference}/ack`)).status).toBe(200);
      expect((await post(`/api/admin/reports/${reference}/resolve`).send({ outcome: 'no_action', note: 'fine' })).status).toBe(200);
    }
    expect((await post(`/api/reports/${first}/appeal`, '').send({ text: 'look again' })).status).toBe(200);
    expect((await post(`/api/admin/reports/${second}/appeal`).send({ text: 'by phone' })).status).toBe(200);
    expect((await post(`/api/admin/reports/${second}/decide`).send({ decision: 'upheld', note: 'still fine' })).status).toBe(200);
  });

  it('the owner manages admins', async () => {
    expect((await post('/api/admin/admins').send({ name: 'oa_mod', role: 'moderator' })).status).toBe(201);
    expect((await post('/api/admin/admins/oa_mod/passkeys/revoke').send({})).status).toBe(404);
    for (const [path, body] of [
      ['/api/admin/admins/oa_mod/role', { role: 'support' }],
      ['/api/admin/admins/oa_mod/email', { email: 'mod@example.com' }],
      ['/api/admin/admins/oa_mod/totp', {}],
      ['/api/admin/admins/oa_mod/disable', {}],
      ['/api/admin/admins/oa_mod/enable', {}],
      ['/api/admin/admins/rekey', {}],
    ] as const) {
      const res = await post(path).send(body);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await post('/api/admin/signout')).status).toBe(204);
  });

  it('every answer matched its description, and every route was walked but the ones said', () => {
    expect(checker.problems).toEqual([]);
    const answered = new Set(checker.answered());
    const catalog = ['updates', 'photos', 'videos', 'vod', 'models', 'modelname', 'thumbnails', 'freethumbnails', 'freephotos', 'search'];
    const unwalked = checker
      .all()
      .filter((route) => !answered.has(route))
      .filter((route) => !catalog.some((c) => route.startsWith(`GET /api/${c}`)) && route !== 'GET /api/coming-soon');
    expect(unwalked.sort()).toEqual(['GET /api/openapi.json', ...NOT_WALKED].sort());
  });
});
