import '@trove/kit/heap-growth';
import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { processMediaItemWork } from '@trove/proto-events';
import { rm } from 'node:fs/promises';
import { closeExifTool, closeOcr, configureExifTool, findPlace } from './components';
import { limitsOf, WORK_CONSUMER, workerSpec } from './pipeline/config';
import { reportJobItem } from './pipeline/job-item';
import { processItem } from './pipeline/process';
import { processTempDir, sweepStaleTemp } from './pipeline/temp';

/**
 * Test stacks only (e2e/security): an item whose file name contains TROVE_WORKER_TEST_CRASH_ON kills
 * this process with SIGKILL, as the kernel's OOM killer would, so the crash quarantine is tested with a
 * real death. Unset everywhere else.
 */
function crashForTests(filename: string): void {
  const marker = process.env.TROVE_WORKER_TEST_CRASH_ON;
  if (marker && filename.includes(marker)) process.kill(process.pid, 'SIGKILL');
}

/**
 * The worker service: processes uploaded media from the JetStream work queue. Stateless apart
 * from per-item temp files, so it scales by running more processes (or pods).
 */
void runService({
  name: 'worker',
  version: packageVersion(__dirname),
  configSpec: workerSpec,
  async start({ config, log, bus, onShutdown, blobStore, serve }) {
    await serve('processing of uploaded media', []);
    const blobs = await blobStore();
    const stale = await sweepStaleTemp();
    if (stale) log.info({ removed: stale }, 'temp directories of stopped workers removed');
    const tempRoot = await processTempDir();
    onShutdown(() => rm(tempRoot, { recursive: true, force: true }));
    onShutdown(closeOcr);
    configureExifTool({ procs: config.exiftoolProcs, timeoutSeconds: config.exiftoolTimeoutSeconds });
    onShutdown(closeExifTool);
    const limits = limitsOf(config);
    const places = { maxDistanceKm: config.placesMaxDistanceKm };

    await bus.consume(
      processMediaItemWork,
      // An item whose processing kills the process (a decoder's crash, the OOM killer) twice is quarantined: FAILED with the reason.
      {
        durable: WORK_CONSUMER,
        concurrency: config.concurrency,
        maxDeliver: config.maxDeliver,
        backoffMs: config.backoffMs,
        ackWaitMs: config.ackWaitSeconds * 1000,
        quarantineAfter: config.quarantineCrashes,
      },
      async (item, meta) => {
        const started = Date.now();
        if (meta.crashes)
          log.warn(
            { mediaItemId: item.mediaItemId, crashes: meta.crashes },
            'the worker died while processing this item before; it runs alone now',
          );
        crashForTests(item.filename);
        const outcome = await processItem(
          {
            blobs,
            events: bus,
            log,
            tempRoot,
            limits,
            thingsMinScore: config.thingsMinScore,
            faces: { minScore: config.facesMinScore, minSize: config.facesMinSize },
            findPlace: (lat, lon) => findPlace(lat, lon, places),
            ocrTimeoutSeconds: config.ocrTimeoutSeconds,
          },
          item,
        );
        // A failed item was logged with its reason by processItem.
        if (outcome === 'gone') log.info({ mediaItemId: item.mediaItemId }, 'original is gone (item purged); skipped');
        else if (outcome === 'processed')
          log.info(
            {
              mediaItemId: item.mediaItemId,
              jobId: item.jobId,
              components: item.components,
              delivery: meta.delivery,
              ms: Date.now() - started,
            },
            'media item processed',
          );
        await reportJobItem(bus, item, outcome);
      },
    );
    log.info(
      {
        concurrency: config.concurrency,
        maxDeliver: config.maxDeliver,
        backoffMs: config.backoffMs,
        limits,
        places,
        ocrTimeoutSeconds: config.ocrTimeoutSeconds,
        exiftool: { procs: config.exiftoolProcs, timeoutSeconds: config.exiftoolTimeoutSeconds },
      },
      'consuming work queue',
    );
  },
});
