import type { Knex } from 'knex';
import { hashPassword } from '@media-site/db/members/password';
import { insertMember, insertSubscription, memberByUsername, membershipPaidUntil } from './repository';

/** Local use only: `npm start` prints these; production never calls ensureDemoMember. */
export const DEMO_MEMBER = { username: 'demo', password: 'demo-password-local-only' };

const DAY_MS = 86_400_000;

/** The demo member with a membership running a year ahead (renewed when it gets short). */
export async function ensureDemoMember(knex: Knex, now = Date.now()): Promise<{ created: boolean }> {
  let member = await memberByUsername(knex, DEMO_MEMBER.username);
  const created = !member;
  if (!member) {
    const id = await insertMember(knex, { username: DEMO_MEMBER.username, passwordHash: await hashPassword(DEMO_MEMBER.password), email: 'demo@example.com', now });
    member = await memberByUsername(knex, DEMO_MEMBER.username);
    if (!member || member.id !== id) throw new Error('demo member was not stored');
  }
  const until = await membershipPaidUntil(knex, member.id);
  if (until === null || until < now + 30 * DAY_MS) {
    await insertSubscription(knex, { memberId: member.id, kind: 'membership', vodId: null, providerSubscriptionId: null, paidUntil: now + 365 * DAY_MS, now });
  }
  return { created };
}
