import type { Knex } from 'knex';
import { addMember, hashPassword, memberNamed } from '@media-site/db/members';

/** Local use only: `npm start` prints these; production never calls ensureDemoMember. */
export const DEMO_MEMBER = { username: 'demo', password: 'demo-password-local-only' };

const DAY_MS = 86_400_000;

/**
 * The demo member with a membership running a year ahead (renewed when it gets short). Seed data
 * beside the demo catalog (`npm start`, scripts/lib/prepare.ts), so it lives with the seed and the
 * operator's member commands rather than in the bff.
 */
export async function ensureDemoMember(db: Knex, now = Date.now()): Promise<{ created: boolean }> {
  const row = await memberNamed(db, DEMO_MEMBER.username).first('id');
  if (!row) {
    const passwordHash = await hashPassword(DEMO_MEMBER.password);
    await addMember(db, { username: DEMO_MEMBER.username, passwordHash, email: 'demo@example.com', days: 365, now });
    return { created: true };
  }
  const memberId = Number(row.id);
  // The bff's rule for "paid through": the latest active or cancelled membership.
  const paid = await db('subscriptions')
    .where({ member_id: memberId, kind: 'membership' })
    .whereIn('status', ['active', 'cancelled'])
    .max({ until: 'paid_until' })
    .first();
  const until = paid?.until === null || paid?.until === undefined ? null : Number(paid.until);
  if (until === null || until < now + 30 * DAY_MS) {
    await db('subscriptions').insert({
      member_id: memberId,
      kind: 'membership',
      vod_id: null,
      provider_subscription_id: null,
      status: 'active',
      paid_until: now + 365 * DAY_MS,
      created_at: now,
      updated_at: now,
    });
  }
  return { created: false };
}
