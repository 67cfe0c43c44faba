import '@trove/kit/telemetry/register';
import { observedGauge, packageVersion, runService } from '@trove/kit';
import { mediaSpec } from './config';
import { consumeMediaEvents } from './events';
import { mediaHandlers } from './handlers';
import { MediaRepository } from './items/repository';
import { MediaService } from './items/service';
import { startPeriodic } from './items/sweeper';
import { UsageRepository } from './usage/repository';
import { StorageUsage } from './usage/service';

/** The media service: media items, their flags and content locations; applies processing results; purges expired trash. */
void runService({
  name: 'media',
  version: packageVersion(__dirname),
  configSpec: mediaSpec,
  async start({ config, log, bus, onShutdown, docStore, blobStore, serve }) {
    const store = await docStore();
    const blobs = await blobStore();

    const trashRetentionMs = (config.trashRetentionSeconds ?? config.trashRetentionDays * 24 * 3600) * 1000;
    const stuckAfterMs = config.processingStuckAfterSeconds * 1000;
    const items = await MediaRepository.open(store);
    observedGauge('trove_media_items', 'Media items of every user by processing status.', ['status'], async () =>
      Object.entries(await items.countByStatus()).map(([status, value]) => ({ labels: { status }, value })),
    );
    const usage = new StorageUsage(await UsageRepository.open(store), (userId) => items.sizeOfUser(userId));
    const media = new MediaService({ items, blobs, events: bus, log, usage, trashRetentionMs, stuckAfterMs });

    await serve('media items, their flags and content', mediaHandlers(media));
    await consumeMediaEvents(bus, media, log);

    const sweeper = startPeriodic(
      'expired trash purged',
      () => media.purgeExpiredTrash(),
      config.trashSweepIntervalSeconds * 1000,
      log,
    );
    onShutdown(() => sweeper.stop());
    const reconciler = startPeriodic(
      'items stuck in PROCESSING queued again',
      () => media.requeueStuckProcessing(),
      config.processingCheckIntervalSeconds * 1000,
      log,
    );
    onShutdown(() => reconciler.stop());
    log.info(
      { trashRetentionSeconds: trashRetentionMs / 1000, sweepIntervalSeconds: config.trashSweepIntervalSeconds },
      'trash retention',
    );
  },
});
