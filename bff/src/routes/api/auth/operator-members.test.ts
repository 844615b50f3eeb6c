import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';

describe.each(testBackends())('members added and disabled by the operator CLI (%s)', (backend) => {
  let kit: AccountKit;
  async function member(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOpsCommand(['member', ...argv], {
      env: {},
      knex: kit.db.knex,
      stdin: async () => 'from stdin 123\n',
      out: (s) => out.push(s),
      err: (s) => err.push(s),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const memberId = async (username: string) => String((await kit.db.knex('members').where({ username }).first('id')).id);
  const revocations = async () => (await kit.request.get('/internal/media-revocations')).body.members as string[];

  beforeAll(async () => {
    kit = await startAccountKit(backend);
  });
  afterAll(() => kit?.close());

  it('a member added with --password-stdin signs in with an active membership', async () => {
    expect((await member('add', 'op_member', '--password-stdin', '--email', 'op@example.com', '--days', '10')).code).toBe(0);
    const { res, cookie } = await signIn(kit, 'op_member', 'from stdin 123');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'op_member', membership: { active: true } });
    expect((await kit.request.get('/api/me').set('Cookie', cookie)).status).toBe(200);
  });

  it('a member added with --days 0 signs in without a membership; a generated password works', async () => {
    const added = await member('add', 'op_free', '--days', '0');
    expect(added.code).toBe(0);
    const password = /password: (\S+)/.exec(added.out)?.[1] ?? '';
    const { res } = await signIn(kit, 'op_free', password);
    expect(res.status).toBe(200);
    expect(res.body.membership.active).toBe(false);
  });

  it('disable ends sessions, refuses sign-in and lists the member for the media service; enable undoes it', async () => {
    expect((await member('add', 'op_gone', '--password', 'correct horse')).code).toBe(0);
    const { cookie } = await signIn(kit, 'op_gone');
    const id = await memberId('op_gone');
    expect(await revocations()).not.toContain(id);

    const disabled = await member('disable', 'op_gone', '--reason', 'shared credentials');
    expect(disabled.code).toBe(0);
    expect(disabled.out).toMatch(/1 session/);
    expect(await revocations()).toContain(id);
    expect((await kit.request.get('/api/me').set('Cookie', cookie)).status).toBe(401);
    const refused = await kit.request.post('/api/login').set('Origin', ORIGIN).send({ username: 'op_gone', password: 'correct horse' });
    expect(refused.status).toBe(403);
    // The wrong password still gets the plain 401: disabling does not reveal that the name exists.
    expect(
      (await kit.request.post('/api/login').set('Origin', ORIGIN).send({ username: 'op_gone', password: 'not the password' })).status,
    ).toBe(401);

    expect((await member('enable', 'op_gone')).code).toBe(0);
    expect(await revocations()).not.toContain(id);
    expect((await signIn(kit, 'op_gone')).res.status).toBe(200);
  });
});
