import type { JobV1, MediaItemWalkV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';
import type { JobStatus } from './transitions';

/**
 * A job. `activeUserId` is set (to the owner) while the job is SCHEDULED, RUNNING or PAUSED, under a
 * sparse unique index: a user has at most one active job, whatever replicas create at once.
 * `cursor` is where the walk is (the last item queued: its id is `lastMediaItemId`); `lease` names
 * the runner driving the job and until when (it renews it while it drives).
 */
export interface JobDoc {
  _id: string;
  userId: string;
  /** As the user asked for them. */
  components: string;
  /** The worker components each item gets. */
  work: string[];
  search: boolean;
  status: JobStatus;
  activeUserId?: string;
  cursor: { id: string; createdAt: Date } | null;
  done: number;
  total: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One item a job queued work for. `queued`: recorded, its work maybe not published yet (a runner
 * that stopped there publishes it again on resuming, de-duplicated by its msgId); `published`;
 * `done`: the worker reported it (counted once in the job's `done`).
 */
export interface JobItemDoc {
  _id: string;
  jobId: string;
  userId: string;
  mediaItemId: string;
  state: 'queued' | 'published' | 'done';
  /** What its work item needs (to publish it again). */
  work: WalkedItem;
}

/** One item of a walk over the user's library, as the media service answers it. */
export type WalkedItem = MediaItemWalkV1['items'][number];

export const JOBS = defineCollection<JobDoc>('jobs', [
  { fields: { activeUserId: 1 }, unique: true, sparse: true },
  { fields: { userId: 1, createdAt: -1 } },
  { fields: { status: 1 } },
]);

export const JOB_ITEMS = defineCollection<JobItemDoc>('job_items', [
  { fields: { jobId: 1, state: 1 } },
  { fields: { userId: 1 } },
]);

/** The job as the contract shows it. */
export function toJobV1(doc: JobDoc): JobV1 {
  return {
    id: doc._id,
    components: doc.components,
    status: doc.status,
    lastMediaItemId: doc.cursor?.id ?? null,
    done: doc.done,
    total: doc.total,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
