/**
 * Work a job queued: after the item's outcome, whatever it is, the job hears that the item is
 * done (events.v1.job.item.done, de-duplicated per job and item), so its progress counts every item
 * once and it can finish. Work of an upload has no job and reports nothing.
 */
import { jobItemDoneEvent } from '@trove/proto-events';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import type { EventPublisher } from '@trove/kit';
import type { Outcome } from './process';

export async function reportJobItem(events: EventPublisher, item: ProcessMediaItemV1, outcome: Outcome): Promise<void> {
  if (!item.jobId) return;
  const { userId, jobId, mediaItemId } = item;
  await events.publish(
    jobItemDoneEvent,
    { userId, jobId, mediaItemId, outcome },
    { msgId: `job-item-${jobId}-${mediaItemId}` },
  );
}
