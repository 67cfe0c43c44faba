import { blobStoreSpec, int } from '@trove/kit';
import type { Var } from '@trove/kit';
import {
  DEFAULT_EXIFTOOL_PROCS,
  DEFAULT_EXIFTOOL_TIMEOUT_SECONDS,
  DEFAULT_FACES_MIN_SCORE,
  DEFAULT_FACES_MIN_SIZE,
  DEFAULT_LIMITS,
  ffmpegThreads,
  itemMemoryBytes,
  DEFAULT_MAX_DISTANCE_KM,
  DEFAULT_OCR_TIMEOUT_SECONDS,
  DEFAULT_THINGS_MIN_SCORE,
} from '../components';
import type { ProcessingLimits } from '../components';

/** A comma-separated list of non-negative integers, e.g. `10000,60000,300000`. */
function millisList(name: string, fallback: number[]): Var<number[]> {
  return {
    name,
    read(env) {
      const raw = env[name]?.trim();
      if (!raw) return fallback;
      const parts = raw.split(',').map((s) => s.trim());
      if (parts.some((p) => !/^\d{1,9}$/.test(p)))
        throw new Error(`${name} must be a comma-separated list of milliseconds, got "${raw}"`);
      return parts.map(Number);
    },
  };
}

/** A decimal from 0 to 1, e.g. `0.55`. */
function fraction(name: string, fallback: number): Var<number> {
  return {
    name,
    read(env) {
      const raw = env[name]?.trim();
      if (!raw) return fallback;
      const value = Number(raw);
      if (!/^\d*\.?\d+$/.test(raw) || value > 1) throw new Error(`${name} must be a number from 0 to 1, got "${raw}"`);
      return value;
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
  probeTimeoutSeconds: int('TROVE_WORKER_PROBE_TIMEOUT_SECONDS', {
    default: DEFAULT_LIMITS.probeTimeoutSeconds,
    min: 1,
    max: 3600,
  }),
  frameTimeoutSeconds: int('TROVE_WORKER_FRAME_TIMEOUT_SECONDS', {
    default: DEFAULT_LIMITS.frameTimeoutSeconds,
    min: 1,
    max: 3600,
  }),
  /** A transcode's budget: `perSecond` seconds per second of 1080p video (scaled by its pixels), within min and the timeout (the ceiling). */
  transcodeTimeoutSeconds: int('TROVE_WORKER_TRANSCODE_TIMEOUT_SECONDS', {
    default: DEFAULT_LIMITS.transcodeTimeoutSeconds,
    min: 1,
    max: 7 * 24 * 3600,
  }),
  transcodeMinSeconds: int('TROVE_WORKER_TRANSCODE_MIN_SECONDS', {
    default: DEFAULT_LIMITS.transcodeMinSeconds,
    min: 1,
    max: 7 * 24 * 3600,
  }),
  transcodeSecondsPer1080pSecond: int('TROVE_WORKER_TRANSCODE_SECONDS_PER_VIDEO_SECOND', {
    default: DEFAULT_LIMITS.transcodeSecondsPer1080pSecond,
    min: 1,
    max: 1000,
  }),
  /** Memory the worker process may use (the chart sets its container's limit): decoders get a share per item at once. */
  memoryMib: int('TROVE_WORKER_MEMORY_MIB', { default: 2048, min: 256, max: 1024 * 1024 }),
  /** Deaths of the worker process with an item in flight before the item is quarantined (FAILED). */
  quarantineCrashes: int('TROVE_WORKER_QUARANTINE_CRASHES', { default: 2, min: 2, max: 10 }),
  /** ExifTool processes (-stay_open) each worker process keeps for reading metadata. */
  exiftoolProcs: int('TROVE_WORKER_EXIFTOOL_PROCS', { default: DEFAULT_EXIFTOOL_PROCS, min: 1, max: 16 }),
  /** Longest metadata read of one file; past it the ExifTool process is killed and the item FAILED. */
  exiftoolTimeoutSeconds: int('TROVE_WORKER_EXIFTOOL_TIMEOUT_SECONDS', {
    default: DEFAULT_EXIFTOOL_TIMEOUT_SECONDS,
    min: 1,
    max: 3600,
  }),
  /** Lowest score of a thing (an object the detector sees) reported for a photo or a video's poster. */
  thingsMinScore: fraction('TROVE_THINGS_MIN_SCORE', DEFAULT_THINGS_MIN_SCORE),
  /** Lowest (verified) detection score of a face reported for a photo. */
  facesMinScore: fraction('TROVE_FACES_MIN_SCORE', DEFAULT_FACES_MIN_SCORE),
  /** Smallest face reported: its long side in pixels of the analysed picture (the photo scaled to fit 2048 px). */
  facesMinSize: int('TROVE_FACES_MIN_SIZE', { default: DEFAULT_FACES_MIN_SIZE, min: 8, max: 2048 }),
  /** An item's GPS position farther than this from every populated place (at sea) has no place. */
  placesMaxDistanceKm: int('TROVE_PLACES_MAX_DISTANCE_KM', { default: DEFAULT_MAX_DISTANCE_KM, min: 1, max: 1000 }),
  /** Longest text recognition of one photo; a photo that takes longer goes on without words. */
  ocrTimeoutSeconds: int('TROVE_OCR_TIMEOUT_SECONDS', { default: DEFAULT_OCR_TIMEOUT_SECONDS, min: 1, max: 600 }),
  ...blobStoreSpec,
};

/** The limits the configuration sets as they are; the others follow from its memory and concurrency. */
const CONFIGURED_LIMITS = [
  'maxImageBytes',
  'probeTimeoutSeconds',
  'frameTimeoutSeconds',
  'transcodeTimeoutSeconds',
  'transcodeMinSeconds',
  'transcodeSecondsPer1080pSecond',
] as const;

type ConfiguredLimits = Pick<ProcessingLimits, (typeof CONFIGURED_LIMITS)[number]>;
type LimitsConfig = ConfiguredLimits & {
  memoryMib: number;
  concurrency: number;
};

/** The components' limits from the worker's configuration: one item's memory share is the budget over the items run at once. */
export function limitsOf(config: LimitsConfig): ProcessingLimits {
  const configured = Object.fromEntries(CONFIGURED_LIMITS.map((key) => [key, config[key]])) as ConfiguredLimits;
  return {
    ...configured,
    itemMemoryBytes: itemMemoryBytes(config.memoryMib, config.concurrency),
    ffmpegThreads: ffmpegThreads(config.concurrency),
  };
}
