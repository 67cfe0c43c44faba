import type { Logger } from '@trove/kit';

/**
 * Runs `task` soon after start and then every `intervalMs`, never two runs at once in this process
 * (the trash purge, the reconciler of items stuck in PROCESSING). `task` answers how many items it
 * touched, logged with `what` when any.
 */
export function startPeriodic(
  what: string,
  task: () => Promise<number>,
  intervalMs: number,
  log: Logger,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = task()
      .then((n) => {
        if (n > 0) log.info({ count: n }, what);
      })
      .catch((err) => log.warn({ err }, `${what}: failed; will retry`))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  const first = setTimeout(run, Math.min(intervalMs, 5_000));
  first.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
