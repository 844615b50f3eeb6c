export { dumpDatabase, loadDatabase, restoreProblem, RestoreRefused, tablesInOrder, type DumpHeader, type DumpSummary } from './dump';
