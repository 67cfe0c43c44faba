import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { REVOCATIONS } from '@trove/proto-events';
import { AppError, currentContext, runWithContext, unauthorized } from '@trove/kit';
import type { ClientAddresses } from '../http/client-address';
import type { OperationMatcher } from '../openapi/operation-matcher';
import type { AccessClaims, AccessTokenVerifier } from './access-tokens';
import type { ApiKeyResolver } from './api-keys';
import type { AdminCredentials } from './admin-credentials';
import { parseBasicAuth, parseBearer } from './authorization-header';
import { tooManyRequests } from './rate-limiter';
import type { RateLimiter } from './rate-limiter';

/**
 * Who the request is from, once authenticated (in `res.locals.auth`). `signed`: no user, but a
 * valid signed URL for exactly this path (content calls only): with `share`, a URL of that shared
 * album's answers, which the content route checks against the album again; with `sid` and `uid`,
 * one of the owner's URLs, made for that session of that user, neither revoked (checked here).
 */
export type Principal =
  | ({ kind: 'user' } & AccessClaims)
  | { kind: 'admin' }
  | ({ kind: 'signed' } & ({ share: string; key?: string } | { sid: string; uid: string; album?: string }));

/** Checks a signed content URL (`exp` + `sig` + its `share`, or `sid` and `uid`, claim) against the request's path: false, or its claim. */
export type SignedUrlCheck = (
  req: Request,
) => false | { share: string; key?: string } | { sid: string; uid: string; album?: string };

export interface AuthenticateDeps {
  operations: OperationMatcher;
  admin: AdminCredentials;
  tokens: AccessTokenVerifier;
  signedUrls?: SignedUrlCheck;
  /** Failed administrator logins per client address: over the limit every attempt answers 429. */
  adminFailures: RateLimiter;
  /** Resolves `X-Api-Key` (absent: keys are refused). */
  apiKeys?: ApiKeyResolver;
  /** Failed API keys per client address: over the limit every key answers 429 (like failed logins). */
  apiKeyFailures?: RateLimiter;
  clientAddresses: ClientAddresses;
}

const CHALLENGE = { basic: 'Basic realm="Trove administration", charset="UTF-8"', bearer: 'Bearer realm="Trove"' };

/**
 * Authentication for every call of the contract, driven by the security the operation declares in
 * openapi.yaml: so a new call is protected the moment it is declared, before any route exists.
 * Runs before body parsing and validation: without credentials nothing else is looked at.
 */
export function authenticate(deps: AuthenticateDeps): RequestHandler {
  return (req, res, next) => {
    const operation = deps.operations.match(req.method, req.path);
    // Undeclared: the validator answers 404 or 405.
    if (!operation || operation.security === 'none') return next();
    const header = req.get('authorization');

    if (operation.security === 'basic') {
      // A request without credentials only asks for the challenge; any other is an attempt.
      if (!header) return deny(res, CHALLENGE.basic);
      const client = deps.clientAddresses.keyOf(req);
      const limit = deps.adminFailures.check(client);
      // Refused before the password is looked at, right or wrong: a guesser learns nothing more.
      if (!limit.allowed) return next(tooManyRequests('too many failed attempts', limit.retryAfterSeconds));
      const credentials = parseBasicAuth(header);
      if (!credentials || !deps.admin.matches(credentials)) {
        deps.adminFailures.take(client);
        return deny(res, CHALLENGE.basic);
      }
      setPrincipal(res, { kind: 'admin' });
      return next();
    }

    const token = parseBearer(header);
    const apiKey = header ? undefined : req.get('x-api-key');
    // An API key acts as its user wherever a bearer token may (never on the administrator's calls above).
    if (apiKey !== undefined) return authenticateKey(deps, apiKey, req, res, next);
    const signed = !token && operation.security === 'bearerOrSigned' ? deps.signedUrls?.(req) : false;
    if (signed) {
      if ('sid' in signed) {
        // An owner's URL opens only while the session it was made for does (logout, a password
        // change) and its user exists: the same map lookups as a token, no call to auth.
        const { revocations } = deps.tokens;
        if (!revocations.current()) return next(revocationsUnavailable());
        if (revocations.has(REVOCATIONS.sessionKey(signed.sid)) || revocations.has(REVOCATIONS.userKey(signed.uid)))
          return deny(res, CHALLENGE.bearer);
      }
      setPrincipal(res, { kind: 'signed', ...signed });
      return next();
    }
    const claims = token ? deps.tokens.verify(token) : undefined;
    if (!claims) return deny(res, CHALLENGE.bearer);
    // A token we cannot check against the revocations (the watch down past its grace) may be a revoked one.
    if (!deps.tokens.revocations.current()) return next(revocationsUnavailable());
    setPrincipal(res, { kind: 'user', ...claims });
    // Every log line of the request names the user.
    runWithContext({ ...currentContext(), userId: claims.userId }, next);
  };
}

/**
 * `X-Api-Key`: the key's user, as a principal like a token's with the key's id as its session (the
 * content URLs answers carry are made for it and die with it). Failures count per client address.
 */
function authenticateKey(deps: AuthenticateDeps, key: string, req: Request, res: Response, next: NextFunction): void {
  const client = deps.clientAddresses.keyOf(req);
  const limit = deps.apiKeyFailures?.check(client);
  if (limit && !limit.allowed) return next(tooManyRequests('too many failed attempts', limit.retryAfterSeconds));
  if (!deps.tokens.revocations.current()) return next(revocationsUnavailable());
  if (!deps.apiKeys) return deny(res, CHALLENGE.bearer);
  deps.apiKeys.resolve(key).then((owner) => {
    if (!owner) {
      deps.apiKeyFailures?.take(client);
      return deny(res, CHALLENGE.bearer);
    }
    setPrincipal(res, { kind: 'user', userId: owner.userId, sessionId: owner.keyId });
    runWithContext({ ...currentContext(), userId: owner.userId }, next);
  }, next);
}

/** 503 with Retry-After: the gateway cannot tell a revoked token from a valid one right now. */
function revocationsUnavailable(): AppError {
  return new AppError('UNAVAILABLE', 'token revocations cannot be checked right now; try again shortly', {
    retryAfterSeconds: 5,
  });
}

function deny(res: Response, challenge: string): void {
  res.status(401).set('WWW-Authenticate', challenge).json({ message: 'Unauthorized' });
}

function setPrincipal(res: Response, principal: Principal): void {
  res.locals.auth = principal;
}

/**
 * The authenticated user, for routes of bearer calls. Throws 401 when the middleware did not
 * authenticate one: a route can never run for nobody, even if its path escaped the match above.
 */
export function requireUser(res: Response): AccessClaims {
  const p = res.locals.auth as Principal | undefined;
  if (p?.kind !== 'user') throw unauthorized();
  return { userId: p.userId, sessionId: p.sessionId };
}

/**
 * For content calls: the user of a bearer token (answers are scoped to them), or `undefined` when
 * an owner's signed URL for this exact path was verified. Throws 401 otherwise, and for a shared
 * album's URL (which only `contentAccess` takes, with its checks).
 */
export function requireUserOrSignature(res: Response): AccessClaims | undefined {
  const access = contentAccess(res);
  if (access.kind === 'shared' || access.kind === 'member') throw unauthorized();
  return access.kind === 'user' ? access.claims : undefined;
}

/**
 * Who may read an item's content: a user (scoped to them), an owner's signed URL (its session
 * checked already), or a visitor of one shared album. Throws 401 otherwise.
 */
export type ContentAccess =
  | { kind: 'user'; claims: AccessClaims }
  | { kind: 'signed' }
  | { kind: 'shared'; albumId: string; key: string | null }
  /** A user's URL for another user's item in an album they own or are a member of: checked against the album. */
  | { kind: 'member'; albumId: string; userId: string };

export function contentAccess(res: Response): ContentAccess {
  const p = res.locals.auth as Principal | undefined;
  if (p?.kind === 'user') return { kind: 'user', claims: { userId: p.userId, sessionId: p.sessionId } };
  if (p?.kind === 'signed') {
    if ('share' in p) return { kind: 'shared', albumId: p.share, key: p.key ?? null };
    return p.album !== undefined ? { kind: 'member', albumId: p.album, userId: p.uid } : { kind: 'signed' };
  }
  throw unauthorized();
}

/** Same for the administrator's calls. */
export function requireAdmin(res: Response): void {
  const p = res.locals.auth as Principal | undefined;
  if (p?.kind !== 'admin') throw unauthorized();
}
