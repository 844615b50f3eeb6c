import type { Knex } from 'knex';

export type AttemptStatus = 'pending' | 'approved' | 'declined' | 'failed' | 'unknown';

export interface AttemptRow {
  id: number;
  payment_token: string;
  kind: 'membership' | 'vod';
  vod_id: number | null;
  member_id: number | null;
  username: string;
  password_hash: string | null;
  email: string;
  amount: string;
  currency_code: number;
  status: AttemptStatus;
  provider_subscription_id: string | null;
  decline_text: string | null;
  created_at: number;
  /** Memberships since migration 031: the first period (a trial's or a full one) and what follows it; null before. */
  period_days: number | null;
  recurring_price: string | null;
  recurring_period_days: number | null;
}

export interface NewAttempt {
  paymentToken: string;
  kind: 'membership' | 'vod';
  vodId: number | null;
  memberId: number | null;
  username: string;
  passwordHash: string | null;
  email: string;
  amount: string;
  currencyCode: number;
  reservation: string;
  now: number;
  /** A membership's terms as sold (membership_offers): its first period, then the recurring price and period. */
  terms?: { periodDays: number; recurringPrice: string; recurringPeriodDays: number } | undefined;
}

const OPEN: AttemptStatus[] = ['pending', 'unknown'];

function toAttempt(row: Record<string, unknown> | undefined): AttemptRow | undefined {
  if (!row) return undefined;
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(row.id),
    payment_token: String(row.payment_token),
    kind: row.kind as AttemptRow['kind'],
    vod_id: n(row.vod_id),
    member_id: n(row.member_id),
    username: String(row.username),
    password_hash: (row.password_hash as string | null) ?? null,
    email: String(row.email),
    amount: String(row.amount),
    currency_code: Number(row.currency_code),
    status: row.status as AttemptStatus,
    provider_subscription_id: row.provider_subscription_id === null ? null : String(row.provider_subscription_id),
    decline_text: (row.decline_text as string | null) ?? null,
    created_at: Number(row.created_at),
    period_days: n(row.period_days),
    recurring_price: row.recurring_price == null ? null : String(row.recurring_price),
    recurring_period_days: n(row.recurring_period_days),
  };
}

/** Recorded before the charge call; the unique payment token is what makes the charge happen once. */
export async function insertAttempt(db: Knex, a: NewAttempt): Promise<number> {
  const [id] = await db('payment_attempts').insert({
    payment_token: a.paymentToken,
    kind: a.kind,
    vod_id: a.vodId,
    member_id: a.memberId,
    username: a.username,
    password_hash: a.passwordHash,
    email: a.email,
    amount: a.amount,
    currency_code: a.currencyCode,
    status: 'pending',
    reservation: a.reservation,
    created_at: a.now,
    updated_at: a.now,
    period_days: a.terms?.periodDays ?? null,
    recurring_price: a.terms?.recurringPrice ?? null,
    recurring_period_days: a.terms?.recurringPeriodDays ?? null,
  });
  return Number(id);
}

export const attemptByToken = async (db: Knex, paymentToken: string) =>
  toAttempt(await db('payment_attempts').where({ payment_token: paymentToken }).first());
export const attemptById = async (db: Knex, id: number) => toAttempt(await db('payment_attempts').where({ id }).first());

/** The attempt that started a provider subscription (a webhook without our pass-through attempt id). */
export const attemptBySubscriptionId = async (db: Knex, subscriptionId: string | null) =>
  toAttempt(await db('payment_attempts').where({ provider_subscription_id: subscriptionId }).first());

export async function reservationTaken(db: Knex, reservation: string): Promise<boolean> {
  return (await db('payment_attempts').where({ reservation }).first('id')) !== undefined;
}

/** Moves an open attempt (pending or unknown) to `status`; false when it was already settled. */
export async function closeAttempt(
  db: Knex,
  id: number,
  status: AttemptStatus,
  patch: { now: number; memberId?: number; providerSubscriptionId?: string | null; declineText?: string | null },
): Promise<boolean> {
  const keepReservation = status === 'approved' || status === 'unknown';
  const updated = await db('payment_attempts')
    .where({ id })
    .whereIn('status', status === 'unknown' ? ['pending'] : OPEN)
    .update({
      status,
      updated_at: patch.now,
      ...(patch.memberId !== undefined ? { member_id: patch.memberId } : {}),
      ...(patch.providerSubscriptionId !== undefined ? { provider_subscription_id: patch.providerSubscriptionId } : {}),
      ...(patch.declineText !== undefined ? { decline_text: patch.declineText } : {}),
      ...(keepReservation ? {} : { reservation: null }),
      // The hash moves to the member on approval; a failed attempt has no use for it.
      ...(status === 'unknown' ? {} : { password_hash: null }),
    });
  return updated === 1;
}

/** Attempts nobody settled: charges in doubt, for the reconciliation command. */
export async function openAttempts(db: Knex, olderThan: number): Promise<AttemptRow[]> {
  const rows: Record<string, unknown>[] = await db('payment_attempts')
    .whereIn('status', OPEN)
    .where('created_at', '<', olderThan)
    .orderBy('id');
  return rows.map((r) => toAttempt(r) as AttemptRow);
}
