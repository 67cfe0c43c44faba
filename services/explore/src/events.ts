import { mediaProcessedEvent, mediaPurgedEvent, mediaRestoredEvent, mediaTrashedEvent, mediaUpdatedEvent, userDeletedEvent } from '@trove/proto-events';
import type { MediaItemChangedV1 } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import type { Explore } from './explore/service';

/** Durable consumer names: one per event, shared by every replica of the explore service. */
export const EXPLORE_CONSUMERS = {
  processed: 'explore-media-processed',
  updated: 'explore-media-updated',
  trashed: 'explore-media-trashed',
  restored: 'explore-media-restored',
  purged: 'explore-media-purged',
  userDeleted: 'explore-user-deleted',
} as const;

/**
 * What explore follows on JetStream: the workers' results (where items belong), every change of an
 * item (updated, trashed and restored alike: explore asks the media service for its current
 * state), purges and user deletions. Every handler is idempotent; a user's deletion is retried
 * until it is done.
 */
export function consumeExploreEvents(bus: Bus, explore: Explore, log: Logger): Promise<ConsumerHandle[]> {
  const changed = async ({ userId, mediaItemId }: MediaItemChangedV1) => {
    await explore.itemChanged(userId, mediaItemId);
    log.debug({ mediaItemId }, 'media item changed: its places and things refreshed');
  };
  return Promise.all([
    bus.consume(mediaProcessedEvent, { durable: EXPLORE_CONSUMERS.processed }, async (result) => {
      await explore.itemProcessed(result);
      log.debug({ mediaItemId: result.mediaItemId }, 'media item filed under its place and things');
    }),
    bus.consume(mediaUpdatedEvent, { durable: EXPLORE_CONSUMERS.updated }, changed),
    bus.consume(mediaTrashedEvent, { durable: EXPLORE_CONSUMERS.trashed }, changed),
    bus.consume(mediaRestoredEvent, { durable: EXPLORE_CONSUMERS.restored }, changed),
    bus.consume(mediaPurgedEvent, { durable: EXPLORE_CONSUMERS.purged }, async ({ userId, mediaItemId }) => {
      await explore.itemPurged(userId, mediaItemId);
      log.debug({ mediaItemId }, 'media item purged: removed from its places and things');
    }),
    bus.consume(userDeletedEvent, { durable: EXPLORE_CONSUMERS.userDeleted, concurrency: 1, retryForever: true }, async ({ userId }) => {
      await explore.userDeleted(userId);
      log.info({ deletedUserId: userId }, 'user deleted: places and things removed');
    }),
  ]);
}
