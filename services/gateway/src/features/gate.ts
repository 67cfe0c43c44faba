import type { RequestHandler } from 'express';
import type { FeatureSet, UserFeature } from '@trove/proto-events';
import type { OperationMatcher } from '../openapi/operation-matcher';
import type { OperationId } from '../openapi/operation-router';
import type { Principal } from '../security/authenticate';
import type { UserFeatures } from './user-features';

/**
 * What a switched-off feature does to a call: an area's own collections answer 403, an item's
 * related lists answer an empty list (nothing was computed, clients show nothing). Calls not
 * listed are not gated here; the public sharing calls check the owner's `sharing` themselves (404 while off).
 */
interface Gate {
  needs: UserFeature[];
  whenOff: 'forbidden' | 'empty';
}

const forbidden = (...needs: UserFeature[]): Gate => ({ needs, whenOff: 'forbidden' });
const empty = (...needs: UserFeature[]): Gate => ({ needs, whenOff: 'empty' });

export const GATES: Partial<Record<OperationId, Gate>> = {
  listAlbums: forbidden('albums'),
  createAlbum: forbidden('albums'),
  getAlbum: forbidden('albums'),
  updateAlbum: forbidden('albums'),
  deleteAlbum: forbidden('albums'),
  listAlbumMediaItems: forbidden('albums'),
  addAlbumMediaItems: forbidden('albums'),
  removeAlbumMediaItems: forbidden('albums'),
  listFavourites: forbidden('favourites'),
  addFavourites: forbidden('favourites'),
  removeFavourites: forbidden('favourites'),
  listHidden: forbidden('hidden'),
  hideMediaItems: forbidden('hidden'),
  unhideMediaItems: forbidden('hidden'),
  listTrash: forbidden('trash'),
  trashMediaItems: forbidden('trash'),
  restoreMediaItems: forbidden('trash'),
  listPlaces: forbidden('explore', 'places'),
  getPlace: forbidden('explore', 'places'),
  listPlaceMediaItems: forbidden('explore', 'places'),
  listThings: forbidden('explore', 'things'),
  getThing: forbidden('explore', 'things'),
  listThingMediaItems: forbidden('explore', 'things'),
  listPeople: forbidden('explore', 'people'),
  getPerson: forbidden('explore', 'people'),
  updatePerson: forbidden('explore', 'people'),
  listPersonMediaItems: forbidden('explore', 'people'),
  listJobs: forbidden('jobs'),
  createJob: forbidden('jobs'),
  getJob: forbidden('jobs'),
  updateJob: forbidden('jobs'),
  listMediaItemPlaces: empty('explore', 'places'),
  listMediaItemThings: empty('explore', 'things'),
  listMediaItemPeople: empty('explore', 'people'),
  listMediaItemAlbums: empty('albums'),
};

/** Creating or updating an album as shared needs `sharing` (links already shared stop answering while it is off: routes/sharing.ts). */
const SHARES: ReadonlySet<OperationId> = new Set<OperationId>(['createAlbum', 'updateAlbum']);

export const FEATURE_DISABLED = { message: 'feature disabled' };

/** Mounted after authentication and validation: gated calls of a user look up the user's effective features. */
export function featureGate(deps: { operations: OperationMatcher; features: UserFeatures }): RequestHandler {
  return (req, res, next) => {
    const principal = res.locals.auth as Principal | undefined;
    const operationId = deps.operations.match(req.method, req.path)?.operationId as OperationId | undefined;
    const gate = operationId && GATES[operationId];
    if (!gate || principal?.kind !== 'user') return next();
    const shares = SHARES.has(operationId) && (req.body as { shared?: unknown } | undefined)?.shared === true;
    deps.features.of(principal.userId).then((features: FeatureSet) => {
      const off = gate.needs.some((f) => !features[f]) || (shares && !features.sharing);
      if (!off) return next();
      if (gate.whenOff === 'empty') res.json([]);
      else res.status(403).json(FEATURE_DISABLED);
    }, next);
  };
}
