import type { Logger } from '@trove/kit';
import { findPlace } from '../components';
import type { Place } from '../components';

/** The places component as the pipeline calls it: a position in, its place (or null) out. */
export type PlaceFinder = (latitude: number, longitude: number) => Promise<Place | null>;

/**
 * The item's place from its GPS position (null without one). A place is a nicety: a lookup that
 * fails is logged and gives null, it never fails the item. The position and the place stay out of
 * the log (they say where a user was); the time taken goes in.
 */
export async function placeOf(
  deps: { log: Logger; findPlace?: PlaceFinder },
  mediaItemId: string,
  position: { latitude: number | null; longitude: number | null },
): Promise<Place | null> {
  const { latitude, longitude } = position;
  if (latitude === null || longitude === null) return null;
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const place = await (deps.findPlace ?? findPlace)(latitude, longitude);
    deps.log.info({ mediaItemId, ms: ms(), found: place !== null }, 'place looked up');
    return place;
  } catch (err) {
    deps.log.error({ mediaItemId, ms: ms(), err }, 'place lookup failed; the item has no place');
    return null;
  }
}
