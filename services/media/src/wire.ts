import type { BlobStore, WireDeps, Wiring } from '@trove/kit';
import { consumeMediaEvents } from './events';
import { mediaHandlers } from './handlers';
import { MediaItemsRepository } from './media-items/repository';
import { MediaItemsService } from './media-items/service';
import { UsageRepository } from './usage/repository';
import { UsageService } from './usage/service';

export interface MediaDeps extends WireDeps {
  blobs: BlobStore;
  /** Trashed items older than this are purged. */
  trashRetentionMs: number;
  /** An item PROCESSING for longer than this without a change has its processing queued again. */
  stuckAfterMs: number;
}

export interface Media extends Wiring {
  media: MediaItemsService;
  repository: MediaItemsRepository;
  usage: UsageService;
}

/** The media service's parts, built once from the bus, its stores and its settings: main.ts starts them. */
export async function wire({ bus, store, log, blobs, trashRetentionMs, stuckAfterMs }: MediaDeps): Promise<Media> {
  const repository = await MediaItemsRepository.open(store);
  const usage = new UsageService(await UsageRepository.open(store), (userId) => repository.sizeOfUser(userId), {
    onCountError: (err, userId, bytes) =>
      log.error(
        { err, userId, bytes },
        "could not count uploads in their owner's usage (the total is that much short)",
      ),
  });
  const media = new MediaItemsService({
    items: repository,
    blobs,
    events: bus,
    log,
    usage,
    trashRetentionMs,
    stuckAfterMs,
  });
  return {
    media,
    repository,
    usage,
    description: 'media items, their flags and content',
    handlers: mediaHandlers(media),
    consume: () => consumeMediaEvents(bus, media, log),
  };
}
