import type { Router } from 'express';
import type { UserFeatures } from '../features/user-features';
import { OperationRouter } from '../openapi/operation-router';
import { requireUser } from '../security/authenticate';

/** The caller's effective features: the user's own, minus those switched off for everybody. */
export function featureRoutes(features: UserFeatures): Router {
  return new OperationRouter().handle('getFeatures', async (_req, res) => {
    const { userId } = requireUser(res);
    res.json(await features.of(userId));
  }).router;
}
