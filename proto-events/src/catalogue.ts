import { authContracts } from './auth-contracts';
import { exploreContracts } from './explore-contracts';
import { jobsContracts } from './jobs-contracts';
import { libraryContracts } from './library-contracts';
import { mediaContracts } from './media-contracts';
import type { MessageContract, RpcContract } from './contract';

/**
 * Every subject the services use, gathered from each service's `<svc>-contracts.ts`. Add a contract
 * there (with its schema under `schemas/`), then run `npm run generate -w proto-events` to refresh the
 * derived types and CATALOGUE.md.
 */
export const catalogue: ReadonlyArray<RpcContract<unknown, unknown> | MessageContract<unknown>> = [
  ...authContracts,
  ...mediaContracts,
  ...libraryContracts,
  ...exploreContracts,
  ...jobsContracts,
] as ReadonlyArray<RpcContract<unknown, unknown> | MessageContract<unknown>>;
