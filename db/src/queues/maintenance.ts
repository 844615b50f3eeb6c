import type { Knex } from 'knex';
import { MAINTENANCE_MESSAGE_MAX } from '@media-site/contracts/site-status';
import { appendAudit } from '../admin/audit';
import { AdminRuleError } from '../admin/errors';
import { setSwitch, switchState } from './switches';

// Maintenance mode: a switch (migration 026) the bff reads before the changes it pauses (joining,
// buying, account changes) and for the banner every page shows. Browsing, streaming, downloads,
// sign-in, sign-out everywhere, reports, the provider's webhooks and the console go on.

const MAINTENANCE = 'maintenance';

export interface Maintenance {
  since: number;
  by: string;
  message: string;
}

export async function maintenanceState(db: Knex | Knex.Transaction): Promise<Maintenance | null> {
  const state = await switchState(db, MAINTENANCE);
  return state && { since: state.at, by: state.by, message: state.note ?? '' };
}

/** The operator's message, checked: one line of printable text, at most MAINTENANCE_MESSAGE_MAX characters. */
export function maintenanceMessage(text: string | undefined): string {
  const message = (text ?? '').trim();
  if (message.length > MAINTENANCE_MESSAGE_MAX)
    throw new AdminRuleError('bad_input', `message: at most ${MAINTENANCE_MESSAGE_MAX} characters`);
  // eslint-disable-next-line no-control-regex -- the point: refuse control characters
  if (/[\u0000-\u001f\u007f]/.test(message)) throw new AdminRuleError('bad_input', 'message: one line of text, no control characters');
  return message;
}

/** Turns maintenance mode on (again: a new message) or off, audited; whether it changed. */
export async function setMaintenance(
  knex: Knex,
  on: boolean,
  by: { actor: string; address?: string; now: number; message?: string },
): Promise<boolean> {
  const message = maintenanceMessage(by.message);
  return knex.transaction(async (trx) => {
    const before = await maintenanceState(trx);
    await setSwitch(trx, MAINTENANCE, on, { actor: by.actor, now: by.now, note: message });
    const changed = on ? !before || before.message !== message : before !== null;
    if (changed)
      await appendAudit(trx, {
        actor: by.actor,
        address: by.address,
        action: on ? 'site.maintenance.on' : 'site.maintenance.off',
        target: 'site',
        ...(on ? { after: { message } } : {}),
        at: by.now,
      });
    return changed;
  });
}
