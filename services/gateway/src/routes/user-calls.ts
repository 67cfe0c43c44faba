import type { Bus } from '@trove/kit';
import type { RpcContract } from '@trove/proto-events';
import type { Request } from 'express';
import type { Handler } from '../openapi/operation-router';
import { requestedChanges, type Schemas, type UpdateRequestName } from '../openapi/schema-fields';
import { requireUser } from '../security/authenticate';

/**
 * Handlers of operations that are calls on the token's user's behalf (the services scope them to
 * that user): the function gets the validated request and the user's id and gives the answer's
 * body, or nothing for a 204 No Content. They are registered like every route, with their
 * operationId: `routes.handle('listAlbums', userAnswer(async (req, userId) => …))`; the request's
 * and answer's types come from the operation there.
 */

/** The operation answers what `answer` gives, as JSON (200, or `status`). */
export function userAnswer<Params, Answer, Body, Query>(
  answer: (req: Request<Params, Answer, Body, Query>, userId: string) => Promise<NoInfer<Answer>>,
  status = 200,
): Handler<Params, Answer, Body, Query> {
  return async (req, res) => {
    const { userId } = requireUser(res);
    res.status(status).json(await answer(req, userId));
  };
}

/** The operation answers 204 No Content once `call` is done. */
export function userCommand<Params, Answer, Body, Query>(
  call: (req: Request<Params, Answer, Body, Query>, userId: string) => Promise<unknown>,
): Handler<Params, Answer, Body, Query> {
  return async (req, res) => {
    const { userId } = requireUser(res);
    await call(req, userId);
    res.status(204).end();
  };
}

/**
 * Handlers of operations on one of the user's things, named by the path's `{id}`: the RPC `contract` is called with
 * the user's id, that id and what `fields` (if given) takes from the request. `answer` makes the RPC's result the
 * operation's answer (`getAlbum`, `listAlbumMediaItems`, …); `command` and `update` answer 204 (`mergePeople`,
 * `updateAlbum`, …).
 */
export function itemCalls(deps: { bus: Pick<Bus, 'request'> }) {
  // `deps` is read when a request comes, not at registration (the route table is built without them).
  const command = <Params extends { id: string }, Answer, Body, Query, Fields extends object>(
    contract: RpcContract<ItemRequest & Fields, unknown>,
    fields?: (req: Request<Params, Answer, Body, Query>) => Fields,
  ): Handler<Params, Answer, Body, Query> =>
    userCommand((req, userId) => deps.bus.request(contract, { userId, id: req.params.id, ...fields?.(req) }));
  return {
    answer: <Params extends { id: string }, Answer, Body, Query, Fields extends object, Result>(
      contract: RpcContract<ItemRequest & Fields, Result>,
      present: (req: Request<Params, Answer, Body, Query>, result: Result) => NoInfer<Answer>,
      fields?: (req: Request<Params, Answer, Body, Query>) => Fields,
    ): Handler<Params, Answer, Body, Query> =>
      userAnswer(async (req, userId) =>
        present(req, await deps.bus.request(contract, { userId, id: req.params.id, ...fields?.(req) })),
      ),
    command,
    /** A command whose body is the update request `schema`: the changes it names (400 when none) are sent. */
    update: <Params extends { id: string }, Answer, Query, N extends UpdateRequestName>(
      contract: RpcContract<ItemRequest & Schemas[N], unknown>,
      schema: N,
    ): Handler<Params, Answer, Schemas[N], Query> => command(contract, (req) => requestedChanges(schema, req.body)),
  };
}

interface ItemRequest {
  userId: string;
  id: string;
}
