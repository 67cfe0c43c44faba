/**
 * The failure policy of the analysis steps (things, faces): what they find is extra information,
 * so a picture a component fails on still gets its previews and metadata; that failure is logged
 * and the item goes on without it. A model that cannot be loaded is different: it is this
 * worker's fault, not the item's, and publishing the item without the analysis would lose it for
 * good (nothing runs it again). So it is a tool error, thrown for the queue to retry the item later
 * or on another worker; the failed load is not kept, so the next item tries again.
 */
import type { Logger } from '@trove/kit';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import { MediaError, ModelLoadError } from '../components';
import { timed } from './timing';

/**
 * Runs `component` on the item, timed under its name; `summary` gives the fields of the log line
 * telling what it found. On a failure of the picture's: logged, and `none`.
 */
export async function analyse<T>(
  log: Logger,
  item: ProcessMediaItemV1,
  component: string,
  run: () => Promise<T>,
  summary: (found: T) => object,
  none: T,
): Promise<T> {
  try {
    const { value, ms } = await timed(component, () =>
      run().catch((err: unknown) => {
        throw err instanceof ModelLoadError ? new MediaError('tool', err.message, { cause: err }) : err;
      }),
    );
    log.info({ mediaItemId: item.mediaItemId, ms, ...summary(value) }, `${component} detected`);
    return value;
  } catch (err) {
    if (err instanceof MediaError && err.kind === 'tool') throw err;
    log.warn(
      { mediaItemId: item.mediaItemId, err },
      `${component} could not be detected; the item goes on without them`,
    );
    return none;
  }
}
