import type { UserFeatures } from '../features/user-features';
import type { OperationRouter } from '../openapi/operation-router';
import { requireUser } from '../security/authenticate';

export interface FeatureRouteDeps {
  features: UserFeatures;
}

/** The caller's effective features: the user's own, minus those switched off for everybody. */
export function featureRoutes(routes: OperationRouter, deps: FeatureRouteDeps): void {
  routes.handle('getFeatures', async (_req, res) => {
    const { userId } = requireUser(res);
    res.json(await deps.features.of(userId));
  });
}
