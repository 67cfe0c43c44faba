import { Router } from 'express';
import type { BlobStore, Bus } from '@trove/kit';

export interface SystemDeps {
  version: string;
  gitSha: string;
  bus: Bus;
  blobs: BlobStore;
  /** False while the revocation list is not loaded: tokens could not be checked fully. */
  revocationsReady: () => boolean;
}

/** Calls that need no login: version, disk usage of the blob store, liveness and readiness. */
export function systemRoutes(deps: SystemDeps): Router {
  const r = Router();
  r.get('/version', (_req, res) => {
    res.json({ version: deps.version, gitSha: deps.gitSha });
  });
  r.get('/disk', async (_req, res, next) => {
    try {
      res.json(await deps.blobs.usage());
    } catch (err) {
      next(err);
    }
  });
  r.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/health/ready', (_req, res) => {
    if (!deps.bus.isConnected()) {
      res.status(503).json({ status: 'unavailable', message: 'not connected to NATS' });
    } else if (!deps.revocationsReady()) {
      res.status(503).json({ status: 'unavailable', message: 'revocation list not loaded' });
    } else {
      res.json({ status: 'ok' });
    }
  });
  return r;
}
