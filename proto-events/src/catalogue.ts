import { defineEvent } from './contract';
import type { MessageContract, RpcContract } from './contract';
import type { UserDeletedV1 } from './generated/types';
import userDeletedV1 from './schemas/user-deleted.v1.json';

/**
 * Every subject the services use. Add a contract here (with its schema under `schemas/`), then run
 * `npm run generate -w proto-events` to refresh the derived types and CATALOGUE.md.
 */

// ---- auth ------------------------------------------------------------------------------------
export const userDeleted = defineEvent<UserDeletedV1>({
  subject: 'events.v1.user.deleted',
  publishers: ['auth'],
  consumers: ['media', 'library', 'explore', 'jobs'],
  summary: "A user was deleted: each consumer removes that user's data.",
  payload: userDeletedV1,
});

export const catalogue: ReadonlyArray<RpcContract<unknown, unknown> | MessageContract<unknown>> = [userDeleted] as ReadonlyArray<
  RpcContract<unknown, unknown> | MessageContract<unknown>
>;
