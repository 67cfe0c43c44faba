import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { httpStatusOf, isAppError } from '@trove/kit';
import type { AppError, Logger } from '@trove/kit';

/** Unknown routes: JSON like every other error. */
export function notFoundHandler(): RequestHandler {
  return (_req, res) => {
    res.status(404).json({ message: 'not found' });
  };
}

/** What express, body-parser and express-openapi-validator put on the errors they raise. */
interface HttpishError {
  status?: unknown;
  statusCode?: unknown;
  type?: string;
  message?: string;
  headers?: Record<string, string>;
}

/**
 * Maps every failure to `{"message": ...}` with the right status:
 * - AppError (from this process or an RPC reply): its code's status; NOT_FOUND 404, CONFLICT 409,
 *   BAD_REQUEST 400, UNAUTHORIZED 401, TOO_MANY_REQUESTS 429 with Retry-After, UNAVAILABLE 503
 *   (no responder or no answer within TROVE_RPC_TIMEOUT_MS);
 * - 4xx from the body parser and the OpenAPI validator: their message, which names the field;
 * - anything else: 500 with a generic message; the details go to the log with the request id.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isAppError(err)) return sendAppError(res, err, log);
    const e = (err ?? {}) as HttpishError;
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
    if (status >= 400 && status < 500) {
      // e.g. the Allow header of a 405.
      for (const [name, value] of Object.entries(e.headers ?? {})) res.set(name, value);
      res.status(status).json({ message: clientMessage(e, status) });
      return;
    }
    internalError(res, err, log);
  };
}

function sendAppError(res: Response, err: AppError, log: Logger): void {
  // A service's internal failure was logged there; here only that it happened, never its text.
  if (err.code === 'INTERNAL') return internalError(res, err, log);
  const { retryAfterSeconds, ...details } = err.details ?? {};
  if ((err.code === 'TOO_MANY_REQUESTS' || err.code === 'UNAVAILABLE') && typeof retryAfterSeconds === 'number')
    res.set('Retry-After', String(retryAfterSeconds));
  if (err.code === 'UNAVAILABLE')
    log.warn({ err: err.message, requestId: res.locals.requestId }, 'backend unavailable');
  res.status(httpStatusOf[err.code]).json({ message: err.message, ...details });
}

function internalError(res: Response, err: unknown, log: Logger): void {
  log.error({ err, requestId: res.locals.requestId }, 'unhandled error');
  res.status(500).json({ message: 'internal server error' });
}

function clientMessage(err: HttpishError, status: number): string {
  if (err.type === 'entity.too.large' || status === 413) return 'request body too large';
  if (err.type === 'entity.parse.failed') return 'request body is not valid JSON';
  // The validator's 415 for a request without any Content-Type reads "unsupported media type undefined".
  if (status === 415 && /undefined$/.test(err.message ?? '')) return 'request body is missing';
  return err.message || 'bad request';
}
