// Operator console accounts: one service layer under the CLI (`admin ...`) and the bff (/api/admin).
export {
  addAdmin,
  adminById,
  adminNamed,
  checkAdminEmail,
  checkAdminName,
  disableAdmin,
  listAdmins,
  rekeyAdmins,
  type Actor,
  type AdminRow,
  type AdminSummary,
} from './accounts';
export {
  appendAudit,
  auditCsv,
  auditPage,
  AUDIT_PAGE_MAX,
  exportAuditCsv,
  readAuditPage,
  recordRead,
  type AuditEntry,
  type AuditRow,
  type Reader,
} from './audit';
export { AdminRuleError } from './errors';
export { changeAdminRole, enableAdmin, resetAdminTotp, setAdminEmail } from './manage';
export {
  addPasskey,
  CHALLENGE_MS,
  checkPasskeyName,
  passkeyByCredentialId,
  passkeyList,
  passkeysOf,
  passkeyUsed,
  PASSKEY_NAME_MAX,
  renamePasskey,
  revokePasskeys,
  saveChallenge,
  takeChallenge,
  type PasskeyRow,
  type PasskeySummary,
} from './passkeys';
export { ADMIN_NAME, ADMIN_ROLES, isAdminRole, roleMay, type AdminAbility, type AdminRole } from './roles';
export {
  adminOfSession,
  confirmAdminSession,
  confirmationFailed,
  createAdminSession,
  deleteAdminSession,
  type SessionAdmin,
  type SessionLimits,
} from './sessions';
export { confirmTotp, passkeySignInAllowed, signInFailed, signInSucceeded, totpSignIn, type Attempt, type SignInOutcome } from './signin';
export { needsReseal, openSecret, sealSecret, SealedSecretError } from './secret-box';
export { totpCode } from './totp';
export {
  dashboard,
  dashboardDays,
  dayStarts,
  DASHBOARD_DAYS_DEFAULT,
  DASHBOARD_DAYS_MAX,
  DASHBOARD_DAYS_MIN,
  type Dashboard,
  type DashboardSections,
  type EncodeQueue,
  type MembersDay,
  type PendingPurge,
  type RecordedError,
  type ReportsDue,
  type Revenue,
  type RevenueDay,
} from './dashboard';
export {
  checkIngestFolder,
  claimIngest,
  finishIngest,
  ingestProgress,
  ingestRun,
  INGEST_FOLDER_MAX,
  INGEST_MAX_ATTEMPTS,
  listIngestFolders,
  recentIngests,
  requestIngest,
  resolveIngestFolder,
  type IngestRun,
  type IngestStatus,
  type IngestSummary,
} from './ingests';
export {
  LIST_POLL_WRITE_EVERY_MS,
  MEDIA_INSTANCE,
  mediaListPolls,
  recordListPoll,
  type MediaListName,
  type MediaListPoll,
} from './media-lists';
