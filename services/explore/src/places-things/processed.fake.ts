import { emptyMediaMetadata } from '@trove/proto-events';
import type { MediaItemProcessedV1, MediaPlaceV1 } from '@trove/proto-events';

/** A place as the worker names one (only the city and its region asked for). */
export function workerPlace(
  city: string,
  state: string | null,
  country: string,
  more: Partial<MediaPlaceV1> = {},
): MediaPlaceV1 {
  return {
    name: city,
    town: null,
    city,
    state,
    country,
    countryCode: 'FR',
    latitude: 48.85,
    longitude: 2.35,
    distanceKm: 1.2,
    postcode: null,
    ...more,
  };
}

/** A worker's result for one item, taken at `creationTime`, with a place and things when given. */
export function processedResult(
  userId: string,
  mediaItemId: string,
  creationTime: string,
  found: { place?: MediaPlaceV1 | null; things?: string[] } = {},
): MediaItemProcessedV1 {
  const result: MediaItemProcessedV1 = {
    userId,
    mediaItemId,
    mimeType: 'image/jpeg',
    metadata: { ...emptyMediaMetadata(creationTime), width: 4, height: 3 },
    category: 'default',
    placeholder: null,
    variants: { preview: null, thumbnail: null, playback: null },
  };
  if (found.place !== undefined) result.place = found.place;
  if (found.things !== undefined) result.things = found.things.map((label, i) => ({ label, score: 0.9 - i / 100 }));
  return result;
}
