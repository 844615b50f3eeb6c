export { dumpDatabase, loadDatabase, restoreProblem, RestoreRefused, tablesInOrder, type DumpHeader, type DumpSummary } from './dump';
export { BACKUP_LATE_MS, backupStatus, recordBackupRun, type BackupRun, type BackupStatus } from './runs';
