import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { RpcContract } from '@trove/proto-events';
import { validate } from '@trove/proto-events';
import { ErrorCode as NatsErrorCode, NatsError } from 'nats';
import type { NatsConnection, Service, ServiceMsg } from 'nats';
import { AppError, httpStatusOf, isAppError } from '../errors';
import type { ErrorCode } from '../errors';
import { runWithContext } from '../log';
import type { Logger } from '../log';
import { rpcClientDuration, rpcErrors, rpcServerDuration, secondsSince } from '../metrics';
import { decodeJson, encodeJson, errorReply } from './codec';
import type { ErrorReply, ResultReply } from './codec';
import { incomingContext, outgoingHeaders, requestIdOf } from './headers';

const tracer = trace.getTracer('trove-bus');

/** A handler bound to its contract: the request arrives validated and typed. */
export interface RpcHandler<Req = unknown, Res = unknown> {
  contract: RpcContract<Req, Res>;
  handle(request: Req): Promise<Res>;
}

export function rpcHandler<Req, Res>(
  contract: RpcContract<Req, Res>,
  handle: (request: Req) => Promise<Res>,
): RpcHandler<Req, Res> {
  return { contract, handle };
}

/** A handler of a call that answers nothing (`EmptyV1`): runs `act`, then answers `{}`. Keeps each handler one line. */
export function rpcCommand<Req, Res extends object>(
  contract: RpcContract<Req, Res>,
  act: (request: Req) => Promise<unknown>,
): RpcHandler<Req, Res> {
  return rpcHandler(contract, async (request) => {
    await act(request);
    return {} as Res;
  });
}

/** Handlers of different contracts in one list: their types are checked where each is built. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRpcHandler = RpcHandler<any, any>;

export interface ServeOptions {
  /** Service name: also its NATS queue group, so replicas share the load. */
  name: string;
  version: string;
  description?: string;
  handlers: AnyRpcHandler[];
}

/** Registers the handlers with the NATS service API (discoverable through $SRV.PING/INFO/STATS). */
export async function serveRpc(nc: NatsConnection, log: Logger, opts: ServeOptions): Promise<Service> {
  const service = await nc.services.add({
    name: opts.name,
    version: opts.version,
    description: opts.description,
    queue: opts.name,
  });
  for (const h of opts.handlers) {
    const handler: RpcHandler = h;
    service.addEndpoint(h.contract.subject.replace(/[.*>]/g, '-'), {
      subject: h.contract.subject,
      handler: (err, msg) => {
        if (err) {
          log.error({ err, subject: h.contract.subject }, 'rpc endpoint error');
          return;
        }
        void dispatch(handler, msg, log);
      },
    });
  }
  // The endpoints' subscriptions reach nats-server with the next flush; until the server has them, a
  // request from another connection finds no responder. Served means answerable: wait for the round trip.
  await nc.flush();
  return service;
}

async function dispatch(h: RpcHandler, msg: ServiceMsg, log: Logger): Promise<void> {
  const subject = h.contract.subject;
  const requestId = requestIdOf(msg.headers);
  const parentCtx = incomingContext(msg.headers);
  const span = tracer.startSpan(
    `rpc ${subject}`,
    { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
    parentCtx,
  );
  const started = process.hrtime.bigint();
  let outcome = 'ok';
  const reply = (code: ErrorCode, message: string, details?: Record<string, unknown>) => {
    outcome = code;
    rpcErrors.inc({ subject, side: 'server', code });
    const err = new AppError(code, message, details);
    msg.respondError(httpStatusOf[code], message, encodeJson(errorReply(err)));
  };
  try {
    const decoded = decodeJson(msg.data);
    if (!decoded.ok) return reply('BAD_REQUEST', 'request is not valid JSON');
    const check = validate(h.contract.request, decoded.value);
    if (!check.valid) return reply('BAD_REQUEST', `invalid request: ${check.errors.join('; ')}`);
    const userId = (decoded.value as { userId?: unknown }).userId;
    const result = await context.with(trace.setSpan(parentCtx, span), () =>
      runWithContext({ requestId, userId: typeof userId === 'string' ? userId : undefined }, () =>
        h.handle(decoded.value),
      ),
    );
    const out = validate(h.contract.response, result);
    if (!out.valid) {
      // A reply that breaks its own contract is our bug: never send it on.
      log.error({ subject, requestId, errors: out.errors }, 'rpc reply failed its schema');
      return reply('INTERNAL', 'internal error');
    }
    const body: ResultReply<unknown> = { result };
    msg.respond(encodeJson(body));
  } catch (err) {
    if (isAppError(err)) {
      span.setAttribute('trove.error.code', err.code);
      return reply(err.code, err.message, err.details);
    }
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    log.error({ err, subject, requestId }, 'rpc handler failed');
    return reply('INTERNAL', 'internal error');
  } finally {
    rpcServerDuration.observe({ subject, outcome }, secondsSince(started));
    span.end();
  }
}

export interface RequestOptions {
  timeoutMs: number;
}

/**
 * Typed request through a contract. Service errors come back as AppError with their code;
 * no responder or no answer in time becomes UNAVAILABLE (the gateway answers 503).
 */
export async function requestRpc<Req, Res>(
  nc: NatsConnection,
  contract: RpcContract<Req, Res>,
  request: Req,
  opts: RequestOptions,
): Promise<Res> {
  const span = tracer.startSpan(`rpc ${contract.subject}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': contract.subject },
  });
  const started = process.hrtime.bigint();
  let outcome = 'ok';
  try {
    return await context.with(trace.setSpan(context.active(), span), async () => {
      let msg;
      try {
        msg = await nc.request(contract.subject, encodeJson(request), {
          timeout: opts.timeoutMs,
          headers: outgoingHeaders(),
        });
      } catch (err) {
        if (
          err instanceof NatsError &&
          (err.code === NatsErrorCode.NoResponders || err.code === NatsErrorCode.Timeout)
        ) {
          const why = err.code === NatsErrorCode.Timeout ? 'did not answer in time' : 'is unavailable';
          throw new AppError('UNAVAILABLE', `${contract.service} service ${why}`);
        }
        throw err;
      }
      const decoded = decodeJson(msg.data);
      if (msg.headers?.get('Nats-Service-Error-Code')) {
        const body = decoded.ok ? (decoded.value as Partial<ErrorReply>) : {};
        const e = body.error;
        throw new AppError(
          e?.code ?? 'INTERNAL',
          e?.message ?? msg.headers.get('Nats-Service-Error') ?? 'internal error',
          e?.details,
        );
      }
      if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null || !('result' in decoded.value)) {
        throw new AppError('INTERNAL', `malformed reply from ${contract.subject}`);
      }
      return (decoded.value as ResultReply<Res>).result;
    });
  } catch (err) {
    outcome = isAppError(err) ? err.code : 'INTERNAL';
    rpcErrors.inc({ subject: contract.subject, side: 'client', code: outcome });
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    rpcClientDuration.observe({ subject: contract.subject, outcome }, secondsSince(started));
    span.end();
  }
}
