import type { ErrorRequestHandler, RequestHandler } from 'express';
import { httpStatusOf, isAppError } from '@trove/kit';
import type { Logger } from '@trove/kit';

/** Unknown routes: JSON like every other error. */
export function notFoundHandler(): RequestHandler {
  return (_req, res) => {
    res.status(404).json({ message: 'not found' });
  };
}

/**
 * Maps every failure to `{"message": ...}` with the right status. Details of unexpected errors stay
 * in the logs (with the request id); the client gets a generic message.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isAppError(err)) {
      res.status(httpStatusOf[err.code]).json({ message: err.message, ...(err.details ?? {}) });
      return;
    }
    const status = typeof err?.status === 'number' ? err.status : typeof err?.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      res.status(status).json({ message: clientMessage(err, status) });
      return;
    }
    log.error({ err, requestId: res.locals.requestId }, 'unhandled error');
    res.status(500).json({ message: 'internal server error' });
  };
}

function clientMessage(err: { message?: string; type?: string }, status: number): string {
  if (err.type === 'entity.too.large') return 'request body too large';
  if (err.type === 'entity.parse.failed') return 'request body is not valid JSON';
  if (status === 413) return 'request body too large';
  return err.message || 'bad request';
}
