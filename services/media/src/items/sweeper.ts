import type { Logger } from '@trove/kit';
import type { MediaService } from './service';

/** Runs the trash purge at start and then every `intervalMs`, never two runs at once in this process. */
export function startSweeper(media: MediaService, intervalMs: number, log: Logger): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = media
      .purgeExpiredTrash()
      .then((n) => {
        if (n > 0) log.info({ purged: n }, 'expired trash purged');
      })
      .catch((err) => log.warn({ err }, 'trash purge failed; will retry'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  const first = setTimeout(sweep, Math.min(intervalMs, 5_000));
  first.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
