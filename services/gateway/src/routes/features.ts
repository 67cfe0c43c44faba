import { Router } from 'express';
import { requireUser } from '../security/authenticate';

export interface Features {
  favourites: boolean;
  hidden: boolean;
}

/** Which optional features are on (TROVE_FEATURE_FAVOURITES / TROVE_FEATURE_HIDDEN). */
export function featureRoutes(features: Features): Router {
  const r = Router();
  r.get('/v1/features', (_req, res) => {
    requireUser(res);
    res.json({ favourites: features.favourites, hidden: features.hidden });
  });
  return r;
}
