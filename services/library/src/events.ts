import {
  mediaPurgedEvent,
  mediaRestoredEvent,
  mediaTrashedEvent,
  mediaUpdatedEvent,
  userDeletedEvent,
} from '@trove/proto-events';
import type { MediaItemChangedV1, UserDeletedV1 } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import type { AlbumsService } from './albums/service';

/** Durable consumer names: one per event, shared by every replica of the library service. */
export const LIBRARY_CONSUMERS = {
  updated: 'library-media-updated',
  trashed: 'library-media-trashed',
  restored: 'library-media-restored',
  purged: 'library-media-purged',
  userDeleted: 'library-user-deleted',
} as const;

/**
 * What the library does when media items or users change elsewhere. Every handler is idempotent:
 * a redelivered or replayed event changes nothing more, and a trash/restore older than the state
 * it would overwrite (events of two subjects may arrive in either order) is ignored.
 */
export function libraryEventHandlers(albums: AlbumsService, log: Logger) {
  return {
    updated: async ({ userId, mediaItemId }: MediaItemChangedV1) => {
      const changed = await albums.itemChanged(userId, mediaItemId);
      log.debug({ mediaItemId, changed }, 'media item changed: hidden flag of its album memberships refreshed');
    },
    trashed: async ({ userId, mediaItemId, at }: MediaItemChangedV1) => {
      const changed = await albums.itemTrashed(userId, mediaItemId, true, new Date(at));
      log.debug({ mediaItemId, changed }, 'media item trashed: album memberships updated');
    },
    restored: async ({ userId, mediaItemId, at }: MediaItemChangedV1) => {
      const changed = await albums.itemTrashed(userId, mediaItemId, false, new Date(at));
      log.debug({ mediaItemId, changed }, 'media item restored: album memberships updated');
    },
    purged: async ({ userId, mediaItemId, at }: MediaItemChangedV1) => {
      await albums.itemPurged(userId, mediaItemId, new Date(at));
      log.debug({ mediaItemId }, 'media item purged: removed from albums');
    },
    userDeleted: async ({ userId }: UserDeletedV1) => {
      await albums.userDeleted(userId);
      log.info({ deletedUserId: userId }, 'user deleted: albums removed');
    },
  };
}

/** Subscribes the handlers through durable JetStream consumers. */
export async function consumeLibraryEvents(bus: Bus, albums: AlbumsService, log: Logger): Promise<ConsumerHandle[]> {
  const h = libraryEventHandlers(albums, log);
  return Promise.all([
    bus.consume(mediaUpdatedEvent, { durable: LIBRARY_CONSUMERS.updated }, h.updated),
    bus.consume(mediaTrashedEvent, { durable: LIBRARY_CONSUMERS.trashed }, h.trashed),
    bus.consume(mediaRestoredEvent, { durable: LIBRARY_CONSUMERS.restored }, h.restored),
    bus.consume(mediaPurgedEvent, { durable: LIBRARY_CONSUMERS.purged }, h.purged),
    bus.consume(userDeletedEvent, { durable: LIBRARY_CONSUMERS.userDeleted, retryForever: true }, h.userDeleted),
  ]);
}
