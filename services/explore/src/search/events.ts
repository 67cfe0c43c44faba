import {
  mediaProcessedEvent,
  mediaPurgedEvent,
  mediaRestoredEvent,
  mediaTrashedEvent,
  mediaUpdatedEvent,
  searchRebuildRequestedEvent,
  userDeletedEvent,
} from '@trove/proto-events';
import type { MediaItemChangedV1 } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import { isForged } from '../forged';
import type { SearchService } from './service';

/** Durable consumer names: one per event, shared by every replica of the explore service (search's own, beside places and things'). */
export const SEARCH_CONSUMERS = {
  processed: 'search-media-processed',
  updated: 'search-media-updated',
  trashed: 'search-media-trashed',
  restored: 'search-media-restored',
  purged: 'search-media-purged',
  userDeleted: 'search-user-deleted',
  rebuild: 'search-rebuild-requested',
} as const;

/**
 * What search follows on JetStream: the workers' results, every change of an item (updated —
 * description, hidden — trashed and restored alike: search asks the media service for its current
 * state), purges and user deletions. Every handler is idempotent.
 */
export function consumeSearchEvents(bus: Bus, search: SearchService, log: Logger): Promise<ConsumerHandle[]> {
  const changed = async ({ userId, mediaItemId }: MediaItemChangedV1) => {
    await search.itemChanged(userId, mediaItemId);
    log.debug({ mediaItemId }, 'media item changed: its search entry refreshed');
  };
  return Promise.all([
    bus.consume(mediaProcessedEvent, { durable: SEARCH_CONSUMERS.processed }, async (result) => {
      if (isForged(result, log)) return;
      await search.itemProcessed(result);
      log.debug({ mediaItemId: result.mediaItemId }, 'media item indexed for search');
    }),
    bus.consume(mediaUpdatedEvent, { durable: SEARCH_CONSUMERS.updated }, changed),
    bus.consume(mediaTrashedEvent, { durable: SEARCH_CONSUMERS.trashed }, changed),
    bus.consume(mediaRestoredEvent, { durable: SEARCH_CONSUMERS.restored }, changed),
    bus.consume(mediaPurgedEvent, { durable: SEARCH_CONSUMERS.purged }, async ({ userId, mediaItemId }) => {
      await search.itemPurged(userId, mediaItemId);
      log.debug({ mediaItemId }, 'media item purged: removed from search');
    }),
    bus.consume(
      searchRebuildRequestedEvent,
      { durable: SEARCH_CONSUMERS.rebuild, concurrency: 1 },
      async ({ userId, jobId }) => {
        const items = await search.rebuild(userId);
        log.info({ jobId, items }, "a job's search rebuild done");
      },
    ),
    bus.consume(
      userDeletedEvent,
      { durable: SEARCH_CONSUMERS.userDeleted, concurrency: 1, retryForever: true },
      async ({ userId }) => {
        await search.userDeleted(userId);
        log.info({ deletedUserId: userId }, 'user deleted: search entries removed');
      },
    ),
  ]);
}
