import { describe, expect, it } from 'vitest';
import { DEMO_MEMBER, ensureDemoMember } from './demo-member';
import { verifyPassword } from '@media-site/db/members';
import { testBackends, useTestDb } from '@media-site/db/testing';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');

// The demo member `npm start` seeds beside the demo catalog: created once, its membership topped up
// to a year ahead whenever less than 30 days are left.
describe.each(testBackends())('the demo member (%s)', (backend) => {
  const db = useTestDb(backend);

  const memberships = async () => {
    const member = await db.knex('members').where({ username: DEMO_MEMBER.username }).first('id', 'password_hash');
    const subs: { paid_until: unknown }[] = await db
      .knex('subscriptions')
      .where({ member_id: member.id, kind: 'membership' })
      .orderBy('id');
    return { member, paidUntil: subs.map((s) => Number(s.paid_until)) };
  };

  it('is created with its published password and a year of membership', async () => {
    expect(await ensureDemoMember(db.knex, NOW)).toEqual({ created: true });
    const { member, paidUntil } = await memberships();
    expect(await verifyPassword(DEMO_MEMBER.password, String(member.password_hash))).toBe(true);
    expect(paidUntil).toEqual([NOW + 365 * DAY_MS]);
  });

  it('is left alone while more than 30 days are paid, and renewed once fewer are', async () => {
    expect(await ensureDemoMember(db.knex, NOW + 300 * DAY_MS)).toEqual({ created: false });
    expect((await memberships()).paidUntil).toEqual([NOW + 365 * DAY_MS]);
    const later = NOW + 340 * DAY_MS;
    expect(await ensureDemoMember(db.knex, later)).toEqual({ created: false });
    expect((await memberships()).paidUntil).toEqual([NOW + 365 * DAY_MS, later + 365 * DAY_MS]);
  });
});
