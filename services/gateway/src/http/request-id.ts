import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runWithContext } from '@trove/kit';

const HEADER = 'X-Request-Id';
const SAFE = /^[A-Za-z0-9._-]{1,128}$/;

/** Every answer carries a request id (the caller's if sane, else a new one); logs and RPCs carry it too. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get(HEADER);
    const id = incoming && SAFE.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader(HEADER, id);
    runWithContext({ requestId: id }, next);
  };
}
