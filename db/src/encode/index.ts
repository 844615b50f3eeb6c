// The encode queue table and what the bff, the operator commands and the encoder share about it.
export { recordEncoded } from './duration';
export { parseManifest, type Manifest, type Rendition } from './manifest';
export { originalFile, sourceSig } from './originals';
export {
  claimNext,
  crashDelay,
  enqueue,
  failJob,
  finishJob,
  formatJobCounts,
  jobById,
  jobCounts,
  jobFor,
  jobsLeft,
  JOB_STATUSES,
  listJobs,
  recoverStale,
  releaseJob,
  renewLease,
  retryDelay,
  retryFailed,
  OUTSIDE_RETRY_MAX_MS,
  setSourceSig,
  type JobRow,
  type JobStatus,
} from './queue';
