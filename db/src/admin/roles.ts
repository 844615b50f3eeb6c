// Who may do what in the operator console. The owner may do everything, including
// managing admins and reading the audit log; the API refuses the rest with 403.

import { ADMIN_ROLES, type AdminRole } from '@media-site/contracts/admin';

export { ADMIN_ROLES, type AdminRole };

/**
 * What a console route needs. `content:read` is every role's; `content` (changes) is not support's;
 * `operations` (the dashboard's purge outbox and recorded errors) is the owner's alone; `queues` (the
 * Queues screen: see and act on the encode, ingest, mail and purge queues) the owner's and moderators';
 * `prices` (set what new members are charged; `payments` may read it) the owner's alone.
 */
export type AdminAbility =
  'admins' | 'audit' | 'reports' | 'takedowns' | 'content' | 'content:read' | 'members' | 'payments' | 'operations' | 'queues' | 'prices';

const ABILITIES: Record<Exclude<AdminRole, 'owner'>, readonly AdminAbility[]> = {
  moderator: ['reports', 'takedowns', 'content', 'content:read', 'queues'],
  support: ['members', 'payments', 'content:read'],
};

export const isAdminRole = (value: unknown): value is AdminRole => ADMIN_ROLES.includes(value as AdminRole);

export function roleMay(role: AdminRole, ability: AdminAbility): boolean {
  return role === 'owner' || ABILITIES[role].includes(ability);
}

/** An admin name: lower-case letters, digits and _, 3-32, starting with a letter. */
export const ADMIN_NAME = /^[a-z][a-z0-9_]{2,31}$/;
