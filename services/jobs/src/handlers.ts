import { createJobRpc, getJobRpc, listJobsRpc, updateJobRpc } from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { Jobs } from './jobs/service';

/** The jobs service's RPCs: the gateway calls them with the authenticated user's id. */
export function jobsHandlers(jobs: Jobs): ServeOptions['handlers'] {
  return [
    rpcHandler(createJobRpc, (req) => jobs.create(req)),
    rpcHandler(listJobsRpc, async ({ userId, page, limit }) => ({ jobs: await jobs.list(userId, page, limit) })),
    rpcHandler(getJobRpc, ({ userId, id }) => jobs.get(userId, id)),
    rpcHandler(updateJobRpc, async (req) => {
      await jobs.update(req);
      return {};
    }),
  ];
}
