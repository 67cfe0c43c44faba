import { gazetteer } from './gazetteer';
import { DEFAULT_MAX_DISTANCE_KM, placeAt } from './lookup';
import type { Place, PlaceOptions } from './lookup';
import { postcodeAt } from './postcodes';

export { DEFAULT_MAX_DISTANCE_KM, placeAt } from './lookup';
export type { Place, PlaceOptions } from './lookup';
export { gazetteer, loadGazetteer } from './gazetteer';
export { POSTCODE_MAX_KM, postcodeAt } from './postcodes';
export type { Gazetteer } from './gazetteer';

/**
 * The place a photo or video was taken, from its GPS position, offline: null when no populated
 * place lies within maxDistanceKm (at sea, on an ice sheet), with the postcode of the position where
 * one is known (see postcodes.ts). The first call loads the gazetteer.
 */
export async function findPlace(
  latitude: number,
  longitude: number,
  options: PlaceOptions = { maxDistanceKm: DEFAULT_MAX_DISTANCE_KM },
): Promise<Place | null> {
  const place = placeAt(await gazetteer(), latitude, longitude, options);
  return place && { ...place, postcode: await postcodeAt(place.countryCode, latitude, longitude) };
}
