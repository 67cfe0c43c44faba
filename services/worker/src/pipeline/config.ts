import { blobStoreSpec, int } from '@trove/kit';
import type { Var } from '@trove/kit';
import { DEFAULT_LIMITS } from '../components';
import type { ProcessingLimits } from '../components';

/** A comma-separated list of non-negative integers, e.g. `10000,60000,300000`. */
function millisList(name: string, fallback: number[]): Var<number[]> {
  return {
    name,
    read(env) {
      const raw = env[name]?.trim();
      if (!raw) return fallback;
      const parts = raw.split(',').map((s) => s.trim());
      if (parts.some((p) => !/^\d{1,9}$/.test(p))) throw new Error(`${name} must be a comma-separated list of milliseconds, got "${raw}"`);
      return parts.map(Number);
    },
  };
}

/** Durable pull consumer shared by every worker process: each work item goes to one of them. */
export const WORK_CONSUMER = 'worker-media-process';

/** The worker's own variables (on top of the common ones). Documented in the README. */
export const workerSpec = {
  /** Items processed at once by one worker process. */
  concurrency: int('TROVE_WORKER_CONCURRENCY', { default: 2, min: 1, max: 64 }),
  /** Deliveries of a work item before it is dead-lettered and the item marked FAILED. */
  maxDeliver: int('TROVE_WORKER_MAX_DELIVER', { default: 4, min: 1, max: 100 }),
  /** Delay before each retry of a failed item (the last value repeats). */
  backoffMs: millisList('TROVE_WORKER_BACKOFF_MS', [10_000, 60_000, 300_000]),
  /** How long a delivery may go without a heartbeat before another worker gets it (how fast a crashed worker's items are taken over). */
  ackWaitSeconds: int('TROVE_WORKER_ACK_WAIT_SECONDS', { default: 30, min: 1, max: 3600 }),
  /** Largest photo processed; a bigger one is marked FAILED as too large, without being downloaded. */
  maxImageBytes: int('TROVE_WORKER_MAX_IMAGE_BYTES', { default: DEFAULT_LIMITS.maxImageBytes, min: 1 }),
  /** Time bounds of the child processes; one that runs longer is killed and the item retried. */
  probeTimeoutSeconds: int('TROVE_WORKER_PROBE_TIMEOUT_SECONDS', { default: DEFAULT_LIMITS.probeTimeoutSeconds, min: 1, max: 3600 }),
  frameTimeoutSeconds: int('TROVE_WORKER_FRAME_TIMEOUT_SECONDS', { default: DEFAULT_LIMITS.frameTimeoutSeconds, min: 1, max: 3600 }),
  transcodeTimeoutSeconds: int('TROVE_WORKER_TRANSCODE_TIMEOUT_SECONDS', { default: DEFAULT_LIMITS.transcodeTimeoutSeconds, min: 1, max: 7 * 24 * 3600 }),
  ...blobStoreSpec,
};

/** The components' limits from the worker's configuration. */
export function limitsOf(config: ProcessingLimits): ProcessingLimits {
  const { maxImageBytes, probeTimeoutSeconds, frameTimeoutSeconds, transcodeTimeoutSeconds } = config;
  return { maxImageBytes, probeTimeoutSeconds, frameTimeoutSeconds, transcodeTimeoutSeconds };
}
