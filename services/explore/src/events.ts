import {
  mediaProcessedEvent,
  mediaPurgedEvent,
  mediaRestoredEvent,
  mediaTrashedEvent,
  mediaUpdatedEvent,
  userDeletedEvent,
} from '@trove/proto-events';
import type { MediaItemChangedV1 } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import { isForged } from './forged';
import type { PlacesThingsService } from './places-things/service';
import type { PeopleService } from './people/service';

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
 * What explore follows on JetStream: the workers' results (where items belong, whose faces they
 * show), every change of an item (updated, trashed and restored alike: explore asks the media
 * service for its current state), purges and user deletions. People come after places and things
 * in each (they read explore's record of the item). Every handler is idempotent; a user's deletion
 * is retried until it is done.
 */
export function consumeExploreEvents(
  bus: Bus,
  explore: PlacesThingsService,
  people: PeopleService,
  log: Logger,
): Promise<ConsumerHandle[]> {
  const changed = async ({ userId, mediaItemId }: MediaItemChangedV1) => {
    await explore.itemChanged(userId, mediaItemId);
    await people.itemChanged(userId, mediaItemId);
    log.debug({ mediaItemId }, 'media item changed: its places, things and people refreshed');
  };
  return Promise.all([
    bus.consume(mediaProcessedEvent, { durable: EXPLORE_CONSUMERS.processed }, async (result) => {
      if (isForged(result, log)) return;
      await explore.itemProcessed(result);
      await people.itemProcessed(result);
      log.debug(
        { mediaItemId: result.mediaItemId, faces: result.faces?.length },
        'media item filed under its place, things and people',
      );
    }),
    bus.consume(mediaUpdatedEvent, { durable: EXPLORE_CONSUMERS.updated }, changed),
    bus.consume(mediaTrashedEvent, { durable: EXPLORE_CONSUMERS.trashed }, changed),
    bus.consume(mediaRestoredEvent, { durable: EXPLORE_CONSUMERS.restored }, changed),
    bus.consume(mediaPurgedEvent, { durable: EXPLORE_CONSUMERS.purged }, async ({ userId, mediaItemId }) => {
      await explore.itemPurged(userId, mediaItemId);
      await people.itemPurged(userId, mediaItemId);
      log.debug({ mediaItemId }, 'media item purged: removed from its places, things and people');
    }),
    bus.consume(
      userDeletedEvent,
      { durable: EXPLORE_CONSUMERS.userDeleted, concurrency: 1, retryForever: true },
      async ({ userId }) => {
        await explore.userDeleted(userId);
        await people.userDeleted(userId);
        log.info({ deletedUserId: userId }, 'user deleted: places, things and people removed');
      },
    ),
  ]);
}
