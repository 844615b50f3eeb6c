import type { Knex } from 'knex';

// Operator switches (migration 026): a row while a switch is on. `pause:<queue>` stops a queue's
// workers claiming new work; `maintenance` makes the site read-only. Read at each claim and, for
// maintenance, by the bff: one primary-key lookup.

type Db = Knex | Knex.Transaction;

export interface SwitchState {
  by: string;
  at: number;
  note: string | null;
}

export async function switchState(db: Db, name: string): Promise<SwitchState | null> {
  const row = (await db('switches').where({ name }).first()) as Record<string, unknown> | undefined;
  return row ? { by: String(row.set_by), at: Number(row.set_at), note: row.note == null ? null : String(row.note) } : null;
}

/** Turns a switch on (again: who and when are the latest) or off; whether anything changed. */
export async function setSwitch(db: Db, name: string, on: boolean, by: { actor: string; now: number; note?: string }): Promise<boolean> {
  if (!on) return (await db('switches').where({ name }).delete()) > 0;
  const row = { set_by: by.actor.slice(0, 80), set_at: by.now, note: by.note?.slice(0, 300) ?? null };
  const changed = await db('switches').where({ name }).update(row);
  if (changed > 0) return false;
  await db('switches')
    .insert({ name, ...row })
    .onConflict('name')
    .merge();
  return true;
}

export const pauseSwitch = (queue: string) => `pause:${queue}`;

/** Whether the queue's workers should claim nothing new. */
export async function queuePaused(db: Db, queue: string): Promise<boolean> {
  return Boolean(
    await db('switches')
      .where({ name: pauseSwitch(queue) })
      .first('name'),
  );
}
