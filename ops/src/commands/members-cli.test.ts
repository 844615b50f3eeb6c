import { describe, expect, it } from 'vitest';
import { hashLogNFromEnv } from '@media-site/db/members';
import { runOpsCaptured } from './registry';
import { testBackends, useTestDb } from '@media-site/db/testing';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe.each(testBackends())('member commands of the catalog CLI (%s)', (backend) => {
  const db = useTestDb(backend);
  const cli = (...argv: string[]) =>
    runOpsCaptured(argv, { env: {}, knex: db.knex, now: () => NOW, stdin: async () => 'a stdin password\nignored' });

  it('adds a member with a hashed password and a membership of --days', async () => {
    const res = await cli('member', 'add', 'alice_1', '--password-stdin', '--email', 'alice@example.com', '--days', '7');
    expect(res).toMatchObject({ code: 0, out: 'added: alice_1, membership paid until 2026-03-08T12:00:00Z' });
    const row = await db.knex('members').where({ username: 'alice_1' }).first();
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${hashLogNFromEnv()}\\$8\\$1\\$`));
    expect(row.email).toBe('alice@example.com');
    const sub = await db.knex('subscriptions').where({ member_id: row.id }).first();
    expect(sub).toMatchObject({ kind: 'membership', status: 'active' });
    expect(Number(sub.paid_until)).toBe(NOW + 7 * 86_400_000);
  });

  it('refuses bad input with exit 2 and a taken name (any letter case) with exit 1', async () => {
    expect((await cli('member', 'add', 'Alice_1', '--password', 'long enough')).code).toBe(1);
    const cases: [string[], RegExp][] = [
      [['member', 'add', 'a b', '--password', 'long enough'], /3-15 letters/],
      [['member', 'add', 'bob', '--password', 'short'], /8-64 characters/],
      [['member', 'add', 'bob', '--password', 'long enough', '--password-stdin'], /not both/],
      [['member', 'add', 'bob', '--days', '-1'], /--days/],
      [['member', 'add', 'bob', '--days', '1.5'], /--days/],
      [['member', 'add', 'bob', '--email', 'nope'], /--email/],
      [['member', 'disable', 'alice_1'], /--reason is required/],
      [['member', 'add'], /needs a username/],
      [['member', 'remove', 'alice_1'], /unknown member subcommand/],
    ];
    for (const [argv, message] of cases) {
      const res = await cli(...argv);
      expect({ argv, code: res.code }).toEqual({ argv, code: 2 });
      expect(res.err).toMatch(message);
    }
    expect(await db.knex('members').where({ username: 'bob' }).first()).toBeUndefined();
  });

  it('disables and enables, refusing a repeat and an unknown member', async () => {
    expect((await cli('member', 'disable', 'nobody', '--reason', 'x')).code).toBe(1);
    expect((await cli('member', 'disable', 'alice_1', '--reason', 'chargeback fraud')).code).toBe(0);
    expect(await db.knex('members').where({ username: 'alice_1' }).first('disabled_reason')).toEqual({
      disabled_reason: 'chargeback fraud',
    });
    const again = await cli('member', 'disable', 'alice_1', '--reason', 'x');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already disabled/);
    const list = JSON.parse((await cli('member', 'list', '--json')).out) as Array<{
      username: string;
      status: string;
      disabledReason: string | null;
    }>;
    expect(list.find((m) => m.username === 'alice_1')).toMatchObject({ status: 'disabled', disabledReason: 'chargeback fraud' });
    expect((await cli('member', 'enable', 'alice_1')).code).toBe(0);
    expect((await cli('member', 'enable', 'alice_1')).code).toBe(1);
  });

  it('lists members with their status', async () => {
    await cli('member', 'add', 'carol', '--password', 'long enough', '--days', '0');
    const text = await cli('member', 'list');
    expect(text.code).toBe(0);
    expect(text.out.split('\n')).toEqual([
      expect.stringMatching(/^alice_1 +active +paid until 2026-03-08T12:00:00Z {2}vods 0 {2}alice@example.com$/),
      expect.stringMatching(/^carol +no-membership +paid until - {2}vods 0 {2}-$/),
    ]);
  });
});
