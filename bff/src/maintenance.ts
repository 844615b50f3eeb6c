import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import { AppError } from '@media-site/contracts/errors';
import { MAINTENANCE_TEXT } from '@media-site/contracts/site-status';
import { maintenanceState, type Maintenance } from '@media-site/db/queues';

// Maintenance mode in the bff: the changes it pauses answer 503 with the banner's words, and GET
// /api/site tells every page. The switch is read at most every MAINTENANCE_READ_MS per process (a
// primary-key lookup), so turning it on or off reaches every bff within that time.

export const MAINTENANCE_READ_MS = 2000;

/**
 * The member changes paused in maintenance (exact paths, as the router matches them): joining and
 * buying (the payment chain) and account changes. Sign-in, sign-out (everywhere), reports, the
 * provider's webhooks, playback positions and the console go on.
 */
export const PAUSED_IN_MAINTENANCE: ReadonlySet<string> = new Set([
  '/api/get_ccbill_token',
  '/api/get_ccbill_back_token',
  '/api/process_payment',
  '/api/account/password',
  '/api/account/email',
  '/api/account/email/confirm',
  '/api/password-reset',
  '/api/password-reset/confirm',
]);

const readers = new WeakMap<Knex, () => Promise<Maintenance | null>>();

/** The switch as this process last read it (at most MAINTENANCE_READ_MS old). */
export function readMaintenance(knex: Knex): Promise<Maintenance | null> {
  let read = readers.get(knex);
  if (!read) {
    let last: { at: number; value: Promise<Maintenance | null> } | undefined;
    read = () => {
      const now = Date.now();
      if (!last || now - last.at >= MAINTENANCE_READ_MS) {
        const value = maintenanceState(knex);
        last = { at: now, value };
        // A failed read is not kept: the next request asks again.
        value.catch(() => {
          if (last?.value === value) last = undefined;
        });
      }
      return last.value;
    };
    readers.set(knex, read);
  }
  return read();
}

/** 503 for a paused change while maintenance mode is on; everything else passes untouched. */
export function pausedInMaintenance(knex: Knex) {
  return async function maintenanceGuard(ctx: Context, next: Next): Promise<void> {
    if (ctx.method === 'POST' && PAUSED_IN_MAINTENANCE.has(ctx.path)) {
      const on = await readMaintenance(knex);
      if (on)
        throw new AppError('unavailable', on.message ? `${MAINTENANCE_TEXT} ${on.message}` : MAINTENANCE_TEXT, { 'Retry-After': '300' });
    }
    await next();
  };
}
