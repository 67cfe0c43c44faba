/**
 * The things component as a step of the pipeline. Things are extra information: a picture the
 * detector fails on still gets its previews and metadata, so such a failure is logged and the
 * item goes on with no things. A model that cannot be loaded is different: it is this worker's
 * fault, not the item's, and publishing the item without things would lose them for good (nothing
 * runs the detector again). So it is a tool error, thrown for the queue to retry the item later or
 * on another worker; the failed load is not kept, so the next item tries again.
 */
import type { Logger } from '@trove/kit';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import { DEFAULT_THINGS_MIN_SCORE, detectThings, MediaError, ModelLoadError } from '../components';
import type { Bitmap, Thing, ThingsOptions } from '../components';
import { timed } from './timing';

export interface ThingsStepOptions {
  minScore?: number;
  /** The detector (the tests give one whose model cannot load). */
  detect?: (picture: Bitmap, options: ThingsOptions) => Promise<Thing[]>;
}

export async function findThings(log: Logger, item: ProcessMediaItemV1, picture: Bitmap, { minScore = DEFAULT_THINGS_MIN_SCORE, detect = detectThings }: ThingsStepOptions = {}): Promise<Thing[]> {
  try {
    const { value: things, ms } = await timed('things', () =>
      detect(picture, { minScore, log }).catch((err: unknown) => {
        throw err instanceof ModelLoadError ? new MediaError('tool', err.message, { cause: err }) : err;
      }),
    );
    log.info({ mediaItemId: item.mediaItemId, ms, things: things.map((t) => t.label) }, 'things detected');
    return things;
  } catch (err) {
    if (err instanceof MediaError && err.kind === 'tool') throw err;
    log.warn({ mediaItemId: item.mediaItemId, err }, 'things could not be detected; the item goes on without them');
    return [];
  }
}
