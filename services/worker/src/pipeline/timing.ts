import { componentDuration, secondsSince } from '@trove/kit';
import { MediaError } from '../components';

/**
 * Runs one component for an item and records its time in `trove_worker_component_duration_seconds`,
 * labelled with the outcome: `ok`, the MediaError kind, or `error`. Returns the milliseconds for
 * the item's log line.
 */
export async function timed<T>(component: string, run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint();
  let outcome = 'ok';
  try {
    const value = await run();
    return { value, ms: Math.round(secondsSince(started) * 1000) };
  } catch (err) {
    outcome = err instanceof MediaError ? err.kind : 'error';
    throw err;
  } finally {
    componentDuration.observe({ component, outcome }, secondsSince(started));
  }
}
