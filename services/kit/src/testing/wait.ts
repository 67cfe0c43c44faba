/** Polls `probe` until it returns a truthy value or the deadline passes. */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError ? `: ${(lastError as Error).message}` : '';
      throw new Error(`timed out waiting for ${opts.what ?? 'condition'}${why}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/**
 * Polls `probe` until it returns a `result`. A loaded machine is slower, not stuck: this fails only when the
 * `progress` the probe reports (items done, say) has not moved for `stallMs`, so a batch that keeps advancing
 * is given the time it needs however busy the machine is.
 */
export async function waitForProgress<T>(
  probe: () => Promise<{ progress: number; result?: T }>,
  opts: { stallMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const stallMs = opts.stallMs ?? 60_000;
  let best = -Infinity;
  let movedAt = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const { progress, result } = await probe();
      if (result !== undefined) return result;
      if (progress > best) {
        best = progress;
        movedAt = Date.now();
      }
    } catch (err) {
      lastError = err;
    }
    if (Date.now() - movedAt > stallMs) {
      const why = lastError ? `: ${(lastError as Error).message}` : '';
      throw new Error(
        `no progress for ${stallMs / 1000} s waiting for ${opts.what ?? 'condition'} (stuck at ${best})${why}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}
