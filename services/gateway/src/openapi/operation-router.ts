import { Router } from 'express';
import type { Request, Response } from 'express';
import { listOperations } from '@trove/openapi';
import type { HTTP_METHODS, QueryParameterWithDefault, operations } from '@trove/openapi';
import { asyncHandler } from '../http/async-handler';

/** The operationIds of openapi.yaml. */
export type OperationId = keyof operations;

/** `undefined`/`never` (nothing declared) become an empty object, which is what express hands over then. */
type Declared<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

type WithDefaultsFilled<Q> = Omit<Q, Extract<keyof Q, QueryParameterWithDefault>> &
  Required<Pick<Q, Extract<keyof Q, QueryParameterWithDefault>>>;

/** Path parameters of an operation (always strings). */
export type OperationParams<Id extends OperationId> = Declared<operations[Id]['parameters']['path']>;

/**
 * Query parameters of an operation as they are after validation: coerced to their declared types
 * (integers are numbers, booleans booleans) and with the contract's defaults filled in.
 */
export type OperationQuery<Id extends OperationId> = WithDefaultsFilled<
  Declared<operations[Id]['parameters']['query']>
>;

/** The JSON body of an operation; `undefined` where the contract declares none or makes it optional. */
export type OperationBody<Id extends OperationId> =
  | JsonContent<NonNullable<operations[Id]['requestBody']>>
  | (undefined extends operations[Id]['requestBody'] ? undefined : never);

/** Every JSON answer the contract declares for an operation (its successes and its errors). */
export type OperationAnswer<Id extends OperationId> = {
  [Status in keyof operations[Id]['responses']]: JsonContent<operations[Id]['responses'][Status]>;
}[keyof operations[Id]['responses']];

/**
 * A handler by what it is given, not by operationId, so that one handler can serve operations of
 * the same shape (the favourites, hidden and trash lists).
 */
export type Handler<Params, Answer, Body, Query> = (
  req: Request<Params, Answer, Body, Query>,
  res: Response<Answer>,
) => Promise<void>;

export type OperationRequest<Id extends OperationId> = Request<
  OperationParams<Id>,
  OperationAnswer<Id>,
  OperationBody<Id>,
  OperationQuery<Id>
>;
export type OperationHandler<Id extends OperationId> = Handler<
  OperationParams<Id>,
  OperationAnswer<Id>,
  OperationBody<Id>,
  OperationQuery<Id>
>;

type Method = (typeof HTTP_METHODS)[number];

/**
 * The operations a gateway serves: every route is registered here, once, under an operationId that
 * openapi.yaml declares. The route table (routes/route-table.ts) is the one list of them; the served-
 * operations test compares it with the contract and the file the docs build reads.
 */
export class RouteTable {
  private readonly ids = new Set<OperationId>();

  add(operationId: OperationId): void {
    if (this.ids.has(operationId)) throw new Error(`operation ${operationId} is routed twice`);
    this.ids.add(operationId);
  }

  /** The operationIds with a route, sorted. */
  operationIds(): OperationId[] {
    return [...this.ids].sort();
  }
}

/**
 * Routes by operationId — the one way the gateway registers a route: `routes.handle('listAlbums',
 * handler)`. The method and path come from openapi.yaml, and the handler sees the operation's
 * params, query, body and answers typed from the generated contract types (the handler factories of
 * routes/user-calls.ts included). Every handled operation is recorded in the route table.
 * Mount it behind the OpenAPI validator, which makes those types true: it has checked path, query
 * and body and coerced the query (the one route mounted before it, the streamed upload, reads
 * none of them).
 */
export class OperationRouter {
  readonly router = Router();

  constructor(readonly table: RouteTable = new RouteTable()) {}

  handle<Id extends OperationId>(
    operationId: Id,
    handler: Handler<
      OperationParams<NoInfer<Id>>,
      OperationAnswer<NoInfer<Id>>,
      OperationBody<NoInfer<Id>>,
      OperationQuery<NoInfer<Id>>
    >,
  ): this {
    const operation = listOperations().find((o) => o.operationId === operationId);
    if (!operation) throw new Error(`openapi.yaml declares no operation ${operationId}`);
    this.table.add(operationId);
    const path = operation.path.replace(/\{([^}]+)\}/g, ':$1');
    // The one cast between express's untyped request and the contract's types: the validator's checks make it true.
    this.router[operation.method as Method](
      path,
      asyncHandler((req, res) => handler(req as unknown as OperationRequest<Id>, res)),
    );
    return this;
  }
}
