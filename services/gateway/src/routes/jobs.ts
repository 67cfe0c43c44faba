import type { Router } from 'express';
import { createJobRpc, getJobRpc, listJobsRpc, updateJobRpc } from '@trove/proto-events';
import type { JobV1 } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import { permittedComponents } from '../features/user-features';
import type { UserFeatures } from '../features/user-features';
import { OperationRouter } from '../openapi/operation-router';
import { requireUser } from '../security/authenticate';

export interface JobRouteDeps {
  bus: Bus;
  features: UserFeatures;
}

/** The Job of the contract: `processed` is the older name of `done`. */
const present = (job: JobV1) => ({ ...job, processed: job.done });

/**
 * Processing jobs of the token's user (the jobs service scopes every call to it: another user's job
 * answers 404 `job not found`). A new job runs only the components the owner's features permit.
 */
export function jobRoutes(deps: JobRouteDeps): Router {
  const routes = new OperationRouter();

  routes.handle('listJobs', async (req, res) => {
    const { userId } = requireUser(res);
    const { jobs } = await deps.bus.request(listJobsRpc, { userId, page: req.query.page, limit: req.query.limit });
    res.json(jobs.map(present));
  });

  routes.handle('createJob', async (req, res) => {
    const { userId } = requireUser(res);
    const allowed = permittedComponents(await deps.features.of(userId));
    res.status(201).json(present(await deps.bus.request(createJobRpc, { userId, components: req.body.components, allowed })));
  });

  routes.handle('getJob', async (req, res) => {
    const { userId } = requireUser(res);
    res.json(present(await deps.bus.request(getJobRpc, { userId, id: req.params.id })));
  });

  routes.handle('updateJob', async (req, res) => {
    const { userId } = requireUser(res);
    await deps.bus.request(updateJobRpc, { userId, id: req.params.id, status: req.body.status });
    res.status(204).end();
  });

  return routes.router;
}
