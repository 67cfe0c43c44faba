import type { OperationAnswer, OperationId, OperationRequest, OperationRouter } from '../openapi/operation-router';
import { requireUser } from '../security/authenticate';

/**
 * Operations that are calls on the token's user's behalf (the services scope them to that user):
 * the handler gets the validated request and the user's id and gives the answer's body, or nothing
 * for a 204 No Content.
 */
export function userCalls(routes: OperationRouter) {
  return {
    /** The operation answers what `answer` gives, as JSON (200, or `status`). */
    answer<Id extends OperationId>(operationId: Id, answer: (req: OperationRequest<Id>, userId: string) => Promise<OperationAnswer<Id>>, status = 200): void {
      routes.handle(operationId, async (req, res) => {
        const { userId } = requireUser(res);
        res.status(status).json(await answer(req, userId));
      });
    },
    /** The operation answers 204 No Content once `call` is done. */
    command<Id extends OperationId>(operationId: Id, call: (req: OperationRequest<Id>, userId: string) => Promise<unknown>): void {
      routes.handle(operationId, async (req, res) => {
        const { userId } = requireUser(res);
        await call(req, userId);
        res.status(204).end();
      });
    },
  };
}
