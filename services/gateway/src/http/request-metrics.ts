import type { RequestHandler } from 'express';
import { httpRequestDuration, secondsSince } from '@trove/kit';
import type { OperationMatcher } from '../openapi/operation-matcher';

/** The `route` of a request no operation of openapi.yaml matches (unknown path or method). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Records `trove_http_request_duration_seconds` for every request, labelled by method, route (the
 * path template of openapi.yaml, so ids never multiply the series) and status; `aborted` when the
 * client went away before the answer was complete.
 */
export function requestMetrics(operations: OperationMatcher): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const route = operations.match(req.method, req.path)?.path ?? UNMATCHED_ROUTE;
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      httpRequestDuration.observe({ method: req.method, route, status }, secondsSince(started));
    });
    next();
  };
}
