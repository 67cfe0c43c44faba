import { createJobRpc, getJobRpc, listJobsRpc, updateJobRpc } from '@trove/proto-events';
import type { JobV1 } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import { permittedComponents } from '../features/user-features';
import type { UserFeatures } from '../features/user-features';
import type { OperationRouter } from '../openapi/operation-router';
import { userAnswer, userCommand } from './user-calls';

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
export function jobRoutes(routes: OperationRouter, deps: JobRouteDeps): void {
  routes.handle(
    'listJobs',
    userAnswer(async (req, userId) =>
      (await deps.bus.request(listJobsRpc, { userId, page: req.query.page, limit: req.query.limit })).jobs.map(present),
    ),
  );
  routes.handle(
    'createJob',
    userAnswer(async (req, userId) => {
      const allowed = permittedComponents(await deps.features.of(userId));
      return present(await deps.bus.request(createJobRpc, { userId, components: req.body.components, allowed }));
    }, 201),
  );
  routes.handle(
    'getJob',
    userAnswer(async (req, userId) => present(await deps.bus.request(getJobRpc, { userId, id: req.params.id }))),
  );
  routes.handle(
    'updateJob',
    userCommand((req, userId) =>
      deps.bus.request(updateJobRpc, { userId, id: req.params.id, status: req.body.status }),
    ),
  );
}
