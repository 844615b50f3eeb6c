import type { Knex } from 'knex';
import { AdminRuleError } from './errors';
import type { AdminRole } from './roles';

/**
 * Refuses a change that would leave no active owner (nobody could manage admins from the console
 * again): disabling or demoting the last one, oneself included. Locks the owners' rows, so two
 * owners demoting each other at once cannot both pass.
 */
export async function keepAnOwner(trx: Knex.Transaction, admin: { id: number; role: AdminRole; disabled_at: unknown }, name: string) {
  if (admin.role !== 'owner' || admin.disabled_at != null) return;
  const owners = await trx('admins').where({ role: 'owner' }).whereNull('disabled_at').forUpdate().select('id');
  if (owners.filter((o: { id: unknown }) => Number(o.id) !== admin.id).length === 0)
    throw new AdminRuleError('conflict', `${name} is the last active owner: make another admin an owner first`);
}
