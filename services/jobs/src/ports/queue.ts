import { peopleRegroupRequestedEvent, processMediaItemWork, searchRebuildRequestedEvent } from '@trove/proto-events';
import type { EventPublisher } from '@trove/kit';
import type { JobDoc, WalkedItem } from '../jobs/document';

/** Where a job's work goes: the worker's queue, and the search index's rebuild request. */
export interface JobQueue {
  /** The item's work with the job's components (de-duplicated per job and item: publishing it again is harmless). */
  publishWork(job: JobDoc, item: WalkedItem): Promise<void>;
  /** The `search` component's seam: events.v1.search.rebuild.requested, once per job. */
  requestSearchRebuild(job: JobDoc): Promise<void>;
  /** The `faces` component's last step: events.v1.people.regroup.requested, once per job. */
  requestPeopleRegroup(job: JobDoc): Promise<void>;
}

export function jobQueueOverBus(bus: EventPublisher): JobQueue {
  return {
    async publishWork(job, item) {
      const work = {
        userId: job.userId,
        mediaItemId: item.id,
        originalKey: item.originalKey,
        mimeType: item.mimeType,
        mediaItemType: item.mediaItemType,
        filename: item.filename,
        components: job.work,
        // The user's position, when they gave one: a places job names the place from it.
        ...(item.position ? { position: item.position } : {}),
        jobId: job._id,
      };
      await bus.publish(processMediaItemWork, work, { msgId: `job-${job._id}-${item.id}` });
    },
    async requestSearchRebuild(job) {
      await bus.publish(
        searchRebuildRequestedEvent,
        { userId: job.userId, jobId: job._id, requestedAt: new Date().toISOString() },
        { msgId: `search-rebuild-${job._id}` },
      );
    },
    async requestPeopleRegroup(job) {
      await bus.publish(
        peopleRegroupRequestedEvent,
        { userId: job.userId, jobId: job._id, requestedAt: new Date().toISOString() },
        { msgId: `people-regroup-${job._id}` },
      );
    },
  };
}
