import { blobStoreSpec, docStoreSpec, int } from '@trove/kit';
import type { Var } from '@trove/kit';

/** The media service's own variables (on top of the common ones). Documented in the README. */
export const mediaSpec = {
  /** How long a trashed item is kept before it is purged for good. */
  trashRetentionDays: int('TROVE_TRASH_RETENTION_DAYS', { default: 30, min: 1, max: 3650 }),
  /** Overrides the retention in seconds (tests and demos); unset in production. */
  trashRetentionSeconds: int('TROVE_TRASH_RETENTION_SECONDS', { required: false, min: 1 }) as Var<number | undefined>,
  /** How often the purge sweeper looks for expired trash. */
  trashSweepIntervalSeconds: int('TROVE_TRASH_SWEEP_INTERVAL_SECONDS', { default: 3600, min: 1, max: 7 * 24 * 3600 }),
  /** An item PROCESSING this long without a change has its processing queued again (the reconciler). */
  processingStuckAfterSeconds: int('TROVE_PROCESSING_STUCK_AFTER_SECONDS', { default: 1800, min: 1 }),
  /** How often each media replica looks for items stuck in PROCESSING. */
  processingCheckIntervalSeconds: int('TROVE_PROCESSING_CHECK_INTERVAL_SECONDS', {
    default: 300,
    min: 1,
    max: 24 * 3600,
  }),
  ...docStoreSpec,
  ...blobStoreSpec,
};
