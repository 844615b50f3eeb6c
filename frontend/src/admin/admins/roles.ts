import type { AdminRole } from '../shared/api';

export const ADMIN_ROLES: readonly AdminRole[] = ['owner', 'moderator', 'support'];

export const ROLE_TEXT: Record<AdminRole, string> = {
  owner: 'Owner (everything, admins included)',
  moderator: 'Moderator (reports, takedowns, content)',
  support: 'Support (members, payments)',
};
