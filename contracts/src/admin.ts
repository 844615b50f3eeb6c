/** The operator console's shapes, shared by the bff's answers (db/src/admin) and the console (frontend/src/admin). */

export const ADMIN_ROLES = ['owner', 'moderator', 'support'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** One audit log row as GET /api/admin/audit answers it (`at` in unix milliseconds). */
export interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  address: string;
}
