import type { RequestHandler } from 'express';
import { listOperations, type OpenApiOperation } from '@trove/openapi';
import { USER_FEATURES } from '@trove/proto-events';
import type { FeatureSet, UserFeature } from '@trove/proto-events';
import type { OperationMatcher } from '../openapi/operation-matcher';
import type { OperationId } from '../openapi/operation-router';
import type { Principal } from '../security/authenticate';
import type { UserFeatures } from './user-features';

/**
 * What a switched-off feature does to a call, as `openapi.yaml` declares it (`x-trove-feature`,
 * `x-trove-feature-off`): an area's own collections answer 403, an item's related lists answer an
 * empty list (nothing was computed, clients show nothing). Calls that declare no feature are not
 * gated here; the public sharing calls check the owner's `sharing` themselves (404 while off).
 */
export interface Gate {
  needs: UserFeature[];
  whenOff: 'forbidden' | 'empty';
}

/** The gated operations of the contract; a feature name the server does not know stops the gateway at start. */
export function gatesFromContract(
  operations: readonly OpenApiOperation[] = listOperations(),
): ReadonlyMap<OperationId, Gate> {
  const gates = new Map<OperationId, Gate>();
  for (const { operationId, feature } of operations) {
    if (!feature) continue;
    const unknown = feature.needs.find((f) => !(USER_FEATURES as readonly string[]).includes(f));
    if (unknown !== undefined)
      throw new Error(
        `openapi.yaml: ${operationId} needs unknown feature "${unknown}" (known: ${USER_FEATURES.join(', ')})`,
      );
    gates.set(operationId as OperationId, { needs: feature.needs as UserFeature[], whenOff: feature.whenOff });
  }
  return gates;
}

/** Creating or updating an album as shared needs `sharing` (links already shared stop answering while it is off: routes/sharing.ts). */
const SHARES: ReadonlySet<OperationId> = new Set<OperationId>(['createAlbum', 'updateAlbum']);

export const FEATURE_DISABLED = { message: 'feature disabled' };

/** Mounted after authentication and validation: gated calls of a user look up the user's effective features. */
export function featureGate(deps: { operations: OperationMatcher; features: UserFeatures }): RequestHandler {
  const gates = gatesFromContract();
  return (req, res, next) => {
    const principal = res.locals.auth as Principal | undefined;
    const operationId = deps.operations.match(req.method, req.path)?.operationId as OperationId | undefined;
    const gate = operationId && gates.get(operationId);
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
