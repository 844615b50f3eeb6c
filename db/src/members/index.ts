// Member accounts and passwords: written by the bff (sign-up, payments) and the operator commands.
export {
  addMember,
  bumpAccessValidFrom,
  disableMember,
  enableMember,
  endMemberSessions,
  insertMember,
  listMembers,
  revokeMember,
  setEmail,
  setPasswordHash,
  type MemberSummary,
} from './accounts';
export { MemberRuleError } from './errors';
export {
  checkExtension,
  extendMembership,
  findMembers,
  memberDetail,
  DETAIL_ROWS,
  EXTEND_DAYS_MAX,
  EXTEND_DAYS_MIN,
  EXTEND_REASON_MAX,
  SEARCH_MAX,
  SEARCH_QUERY_MAX,
  searchMembers,
  STUCK_AFTER_MS,
  viewMember,
  type AttemptView,
  type MemberDetail,
  type MemberFound,
} from './support';
export {
  decoyHash,
  hashesInFlight,
  hashLogNFromEnv,
  hashPassword,
  PRODUCTION_LOG_N,
  setHashLogN,
  setHashQueueLimits,
  verifyPassword,
} from './password';
export { createSession, deleteSession, endSessionsOf, sessionMemberId } from './sessions';
export { memberNamed } from './username';
