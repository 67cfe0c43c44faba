import { createJobRpc, getJobRpc, listJobsRpc, updateJobRpc } from '@trove/proto-events';
import { rpcCommand, rpcHandler } from '@trove/kit';
import type { AnyRpcHandler } from '@trove/kit';
import type { JobsService } from './jobs/service';

/** The jobs service's RPCs, one line each: the gateway calls them with the authenticated user's id. */
export function jobsHandlers(jobs: JobsService): AnyRpcHandler[] {
  return [
    rpcHandler(createJobRpc, (req) => jobs.create(req)),
    rpcHandler(listJobsRpc, async ({ userId, page, limit }) => ({ jobs: await jobs.list(userId, page, limit) })),
    rpcHandler(getJobRpc, ({ userId, id }) => jobs.get(userId, id)),
    rpcCommand(updateJobRpc, (req) => jobs.update(req)),
  ];
}
