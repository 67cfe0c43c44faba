import type { RequestHandler } from 'express';
import type { Logger } from '@trove/kit';

/**
 * One line per answered request: method, path (no query: it may hold signatures), status, duration,
 * and what its handler put in `res.locals.accessLogFields` (an upload's id and timings: one line per
 * upload rather than two, on the busiest path).
 */
export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const userId = (res.locals.auth as { userId?: string } | undefined)?.userId;
      const extra = res.locals.accessLogFields as Record<string, unknown> | undefined;
      log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          requestId: res.locals.requestId,
          userId,
          ...extra,
        },
        'request',
      );
    });
    next();
  };
}
