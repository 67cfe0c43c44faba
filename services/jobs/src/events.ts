import { jobItemDoneEvent, mediaProcessingFailedDeadLetter, userDeletedEvent } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import type { JobsService } from './jobs/service';

/** Durable consumer names: one per subject, shared by every replica of the jobs service. */
export const JOBS_CONSUMERS = {
  itemDone: 'jobs-item-done',
  processingFailed: 'jobs-processing-failed',
  userDeleted: 'jobs-user-deleted',
} as const;

/**
 * What the jobs service follows: workers reporting a job's items done, a job's work items that
 * failed every delivery (done too: the job must not wait for them), and user deletions. Each
 * handler is idempotent: an item counts once however often it is reported.
 */
export function consumeJobsEvents(bus: Bus, jobs: JobsService, log: Logger): Promise<ConsumerHandle[]> {
  return Promise.all([
    bus.consume(
      jobItemDoneEvent,
      { durable: JOBS_CONSUMERS.itemDone, concurrency: 8 },
      async ({ jobId, mediaItemId, outcome }) => {
        const counted = await jobs.itemDone(jobId, mediaItemId);
        log.debug({ jobId, mediaItemId, outcome, counted }, 'job item done');
      },
    ),
    bus.consume(
      mediaProcessingFailedDeadLetter,
      { durable: JOBS_CONSUMERS.processingFailed },
      async ({ jobId, mediaItemId }) => {
        if (!jobId) return; // an upload's: the media service's business
        await jobs.itemDone(jobId, mediaItemId);
        log.warn({ jobId, mediaItemId }, "a job's work item failed every delivery; counted done");
      },
    ),
    bus.consume(userDeletedEvent, { durable: JOBS_CONSUMERS.userDeleted, retryForever: true }, async ({ userId }) => {
      await jobs.userDeleted(userId);
      log.info({ deletedUserId: userId }, 'user deleted: jobs stopped and removed');
    }),
  ]);
}
