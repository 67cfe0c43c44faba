import type { Router } from 'express';
import { OperationRouter } from '../openapi/operation-router';
import { requireUser } from '../security/authenticate';

export interface Features {
  favourites: boolean;
  hidden: boolean;
}

/** Which optional features are on (TROVE_FEATURE_FAVOURITES / TROVE_FEATURE_HIDDEN). */
export function featureRoutes(features: Features): Router {
  return new OperationRouter().handle('getFeatures', async (_req, res) => {
    requireUser(res);
    res.json({ favourites: features.favourites, hidden: features.hidden });
  }).router;
}
