import type { Bus } from '@trove/kit';
import { setupStatusRpc } from '@trove/proto-events';
import type { OperationRouter } from '../openapi/operation-router';
import type { DiskUsage } from '../storage/disk-usage';

export interface SystemDeps {
  version: string;
  gitSha: string;
  bus: Bus;
  disk: DiskUsage;
  /** False while the revocation list is not loaded: tokens could not be checked fully. */
  revocationsReady: () => boolean;
}

/** Calls that need no login: version, disk usage of the blob store, liveness, readiness and the setup status. */
export function systemRoutes(routes: OperationRouter, deps: SystemDeps): void {
  routes.handle('getVersion', async (_req, res) => {
    res.json({ version: deps.version, gitSha: deps.gitSha });
  });
  routes.handle('getDisk', async (_req, res) => {
    res.json(await deps.disk.get());
  });
  routes.handle('getLiveness', async (_req, res) => {
    res.json({ status: 'ok' });
  });
  routes.handle('getReadiness', async (_req, res) => {
    if (!deps.bus.isConnected()) {
      res.status(503).json({ status: 'unavailable', message: 'not connected to NATS' });
    } else if (!deps.revocationsReady()) {
      res.status(503).json({ status: 'unavailable', message: 'revocation list not loaded' });
    } else {
      res.json({ status: 'ok' });
    }
  });
  // Only whether no user exists yet (a first run); the account is made through the admin API.
  routes.handle('getSetupStatus', async (_req, res) => {
    res.json(await deps.bus.request(setupStatusRpc, {}));
  });
}
