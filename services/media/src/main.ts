import '@trove/kit/telemetry/register';
import { observedGauge, packageVersion, runService } from '@trove/kit';
import { mediaSpec } from './config';
import { startPeriodic } from './media-items/sweeper';
import { wire } from './wire';

/** The media service: media items, their flags and content locations; applies processing results; purges expired and emptied trash. */
void runService({
  name: 'media',
  version: packageVersion(__dirname),
  configSpec: mediaSpec,
  async start({ config, log, bus, onShutdown, docStore, blobStore, serveWiring }) {
    const store = await docStore();
    const blobs = await blobStore();
    const trashRetentionMs = (config.trashRetentionSeconds ?? config.trashRetentionDays * 24 * 3600) * 1000;
    const stuckAfterMs = config.processingStuckAfterSeconds * 1000;
    const service = await wire({ bus, store, log, blobs, trashRetentionMs, stuckAfterMs });
    const { media, repository, usage } = service;
    // Counts made after their uploads' answers are written before the store closes (it closes after this).
    onShutdown(() => usage.flush());
    observedGauge('trove_media_items', 'Media items of every user by processing status.', ['status'], async () =>
      Object.entries(await repository.countByStatus()).map(([status, value]) => ({ labels: { status }, value })),
    );
    await serveWiring(service);

    // The periodic tasks: started now, stopped at shutdown.
    const every = (seconds: number, what: string, run: () => Promise<number>) => {
      const task = startPeriodic(what, run, seconds * 1000, log);
      onShutdown(() => task.stop());
    };
    every(config.trashSweepIntervalSeconds, 'expired trash purged', () => media.purgeExpiredTrash());
    // Emptied trash is purged when it is emptied; this sweep goes on after a restart or another replica's crash.
    every(config.trashSweepIntervalSeconds, 'emptied trash purged', () => media.purgeEmptiedTrash());
    every(config.processingCheckIntervalSeconds, 'items stuck in PROCESSING queued again', () =>
      media.requeueStuckProcessing(),
    );
    log.info(
      { trashRetentionSeconds: trashRetentionMs / 1000, sweepIntervalSeconds: config.trashSweepIntervalSeconds },
      'trash retention',
    );
  },
});
