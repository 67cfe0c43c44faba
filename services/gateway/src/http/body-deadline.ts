import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';

const deadlines = new WeakMap<IncomingMessage, NodeJS.Timeout>();

/**
 * Every request body must have arrived within `timeoutMs` of its headers: else the call answers
 * 408 and the connection is closed (or, when an answer went out before the body was read, as a
 * 401 does, the connection is simply closed). Without it a client sending headers and then
 * nothing would hold a socket for ever, since the server's whole-request timeout is off for the
 * sake of long uploads. The upload route lifts it (`liftBodyDeadline`) once it streams the body
 * under its own idle timeout.
 */
export function bodyDeadline(timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    if (req.complete) return next();
    const timer = setTimeout(() => {
      deadlines.delete(req);
      if (req.complete || req.socket.destroyed) return;
      if (res.headersSent) req.socket.destroy();
      else answerRequestTimeout(res, `request body not received within ${timeoutMs / 1000} seconds`);
    }, timeoutMs);
    timer.unref();
    deadlines.set(req, timer);
    const lift = () => liftBodyDeadline(req);
    req.once('end', lift);
    req.once('close', lift);
    next();
  };
}

/** For a route that reads the body itself, under its own rules (the upload). */
export function liftBodyDeadline(req: IncomingMessage): void {
  clearTimeout(deadlines.get(req));
  deadlines.delete(req);
}

/** 408 and the connection closed: whatever the client still sends is not read. */
export function answerRequestTimeout(res: Response, message: string): void {
  res.status(408).set('Connection', 'close').json({ message });
}
