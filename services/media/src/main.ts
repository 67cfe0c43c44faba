import './telemetry';
import { DLQ_REASON_HEADER, openBlobStoreFromConfig, openDocStoreFromConfig, packageVersion, runService } from '@trove/kit';
import { mediaProcessedEvent, mediaProcessingFailedDeadLetter, userDeletedEvent } from '@trove/proto-events';
import { mediaSpec } from './config';
import { mediaHandlers } from './handlers';
import { openMediaItems } from './items/repository';
import { MediaService } from './items/service';
import { startSweeper } from './items/sweeper';

/** The media service: media items, their flags and content locations; applies processing results; purges expired trash. */
void runService({
  name: 'media',
  version: packageVersion(__dirname),
  configSpec: mediaSpec,
  async start({ config, log, bus, name, version, onShutdown }) {
    const store = await openDocStoreFromConfig('media', config);
    onShutdown(() => store.close());
    const blobs = await openBlobStoreFromConfig(config);
    onShutdown(() => blobs.close());

    const trashRetentionMs = (config.trashRetentionSeconds ?? config.trashRetentionDays * 24 * 3600) * 1000;
    const media = new MediaService({ items: await openMediaItems(store), blobs, events: bus, log, trashRetentionMs });

    const service = await bus.serve({ name, version, description: 'media items, their flags and content', handlers: mediaHandlers(media) });
    // Shutdown runs in reverse: stop taking requests and messages before the stores close.
    onShutdown(async () => {
      await service.stop();
    });

    const consumers = await Promise.all([
      bus.consume(mediaProcessedEvent, { durable: 'media-processed', concurrency: 8 }, (result) => media.applyProcessed(result)),
      bus.consume(mediaProcessingFailedDeadLetter, { durable: 'media-processing-failed', concurrency: 4 }, (item, meta) =>
        media.markFailed(item.userId, item.mediaItemId, meta.header(DLQ_REASON_HEADER) ?? 'processing failed'),
      ),
      bus.consume(userDeletedEvent, { durable: 'media-user-deleted', concurrency: 1, ackWaitMs: 120_000 }, async (event) => {
        const purged = await media.deleteUserMedia(event.userId);
        log.info({ deletedUserId: event.userId, purged }, "deleted user's media removed");
      }),
    ]);
    onShutdown(async () => {
      await Promise.all(consumers.map((c) => c.stop()));
    });

    const sweeper = startSweeper(media, config.trashSweepIntervalSeconds * 1000, log);
    onShutdown(() => sweeper.stop());
    log.info({ trashRetentionSeconds: trashRetentionMs / 1000, sweepIntervalSeconds: config.trashSweepIntervalSeconds }, 'trash retention');
  },
});
