import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, prepare, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';

// On SQLite a member added without a payment (the demo member, the operator CLI) once could not
// sign in as "DEMO", and "DEMO" could pay for a second account beside "demo". A username is one
// account in any letter case, on every backend.
describe.each(testBackends())('usernames in any letter case (%s)', (backend) => {
  let kit: AccountKit;
  const add = (username: string) =>
    runOpsCommand(['member', 'add', username, '--password', 'correct horse'], { env: {}, knex: kit.db.knex, out: () => {}, err: () => {} });
  beforeAll(async () => {
    kit = await startAccountKit(backend);
    expect(await add('case_member')).toBe(0);
  });
  afterAll(() => kit?.close());

  it('signs in whatever the letter case', async () => {
    const { res } = await signIn(kit, 'CASE_Member');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('case_member');
  });

  it('refuses the same name in another case at payment steps 1 and 4', async () => {
    const first = await kit.request
      .post('/api/get_ccbill_token')
      .set('Origin', ORIGIN)
      .send({ username: 'Case_Member', password: 'correct horse' });
    expect(first.status).toBe(409);
    // Steps 1-3 while the name is free; the operator then adds it in another case.
    const prepared = await prepare(kit, { username: 'Late_Name' });
    expect(await add('late_name')).toBe(0);
    const fourth = await kit.request
      .post('/api/process_payment')
      .set({ Origin: ORIGIN, ...prepared.cookie })
      .send(prepared.body);
    expect(fourth.status).toBe(409);
    expect((await kit.db.knex('members').select('username').orderBy('username')).map((r) => r.username)).toEqual([
      'case_member',
      'late_name',
    ]);
  });
});
