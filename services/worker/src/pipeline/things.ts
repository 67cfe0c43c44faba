/**
 * The things component as a step of the pipeline, with the analysis steps' failure policy (see
 * analysis.ts): a picture the detector fails on costs the item its things only; a model that
 * cannot be loaded is a tool error for the queue to retry.
 */
import type { Logger } from '@trove/kit';
import type { ProcessMediaItemV1 } from '@trove/proto-events';
import { DEFAULT_THINGS_MIN_SCORE, seeThings } from '../components';
import type { Bitmap, ThingsOptions, ThingsSeen } from '../components';
import { analyse } from './analysis';

export interface ThingsStepOptions {
  minScore?: number;
  /** The detector (the tests give one whose model cannot load). */
  detect?: (picture: Bitmap, options: ThingsOptions) => Promise<ThingsSeen>;
}

export function findThings(
  log: Logger,
  item: ProcessMediaItemV1,
  picture: Bitmap,
  { minScore = DEFAULT_THINGS_MIN_SCORE, detect = seeThings }: ThingsStepOptions = {},
): Promise<ThingsSeen> {
  return analyse(
    log,
    item,
    'things',
    () => detect(picture, { minScore, log }),
    (seen) => ({ things: seen.things.map((t) => t.label) }),
    { things: [], objects: [] },
  );
}
