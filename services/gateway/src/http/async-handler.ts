import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Express 4 ignores rejected promises: route handlers go through this so failures reach the error handler. */
export function asyncHandler(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };
}
