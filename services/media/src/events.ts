import { DLQ_REASON_HEADER } from '@trove/kit';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import { mediaProcessedEvent, mediaProcessingFailedDeadLetter, userDeletedEvent } from '@trove/proto-events';
import type { MediaItemsService } from './media-items/service';

/** Durable consumer names: one per subject, shared by every replica of the media service. */
export const MEDIA_CONSUMERS = {
  processed: 'media-processed',
  processingFailed: 'media-processing-failed',
  userDeleted: 'media-user-deleted',
} as const;

/**
 * What the media service follows on JetStream: the workers' results, the work items that failed
 * every delivery, and user deletions. Each handler is idempotent (redeliveries change nothing more).
 */
export function consumeMediaEvents(bus: Bus, media: MediaItemsService, log: Logger): Promise<ConsumerHandle[]> {
  return Promise.all([
    bus.consume(mediaProcessedEvent, { durable: MEDIA_CONSUMERS.processed, concurrency: 8 }, (result) =>
      media.applyProcessed(result),
    ),
    bus.consume(
      mediaProcessingFailedDeadLetter,
      { durable: MEDIA_CONSUMERS.processingFailed, concurrency: 4 },
      async (item, meta) => {
        // A job's rerun that failed leaves the item as it was (the jobs service counts it done).
        if (item.jobId) return;
        await media.markFailed(item.userId, item.mediaItemId, meta.header(DLQ_REASON_HEADER) ?? 'processing failed');
      },
    ),
    bus.consume(
      userDeletedEvent,
      { durable: MEDIA_CONSUMERS.userDeleted, concurrency: 1, ackWaitMs: 120_000, retryForever: true },
      async (event) => {
        const purged = await media.deleteUserMedia(event.userId);
        log.info({ deletedUserId: event.userId, purged }, "deleted user's media removed");
      },
    ),
  ]);
}
