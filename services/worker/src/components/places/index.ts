import { gazetteer } from './gazetteer';
import { DEFAULT_MAX_DISTANCE_KM, placeAt } from './lookup';
import type { Place, PlaceOptions } from './lookup';

export { DEFAULT_MAX_DISTANCE_KM, placeAt } from './lookup';
export type { Place, PlaceOptions } from './lookup';
export { gazetteer, loadGazetteer } from './gazetteer';
export type { Gazetteer } from './gazetteer';

/**
 * The place a photo or video was taken, from its GPS position, offline: null when no populated
 * place lies within maxDistanceKm (at sea, on an ice sheet). The first call loads the gazetteer.
 */
export async function findPlace(latitude: number, longitude: number, options: PlaceOptions = { maxDistanceKm: DEFAULT_MAX_DISTANCE_KM }): Promise<Place | null> {
  return placeAt(await gazetteer(), latitude, longitude, options);
}
