import { docStoreSpec, int } from '@trove/kit';

/** The jobs service's own variables (on top of the common ones). Documented in the README. */
export const jobsSpec = {
  ...docStoreSpec,
  /** Work items of one job queued and not yet done, at most. */
  maxInFlight: int('TROVE_JOBS_MAX_IN_FLIGHT', { default: 8, min: 1, max: 1000 }),
  /** A runner's claim on a job lasts this long without renewal: a killed replica's job is taken over after it. */
  leaseSeconds: int('TROVE_JOBS_LEASE_SECONDS', { default: 30, min: 2, max: 3600 }),
  /** How often each replica looks for jobs to drive (and for room in flight). */
  pollMs: int('TROVE_JOBS_POLL_MS', { default: 1000, min: 10, max: 60_000 }),
};
