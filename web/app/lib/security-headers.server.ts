/**
 * The security headers of every answer of the web server that the browser renders or runs:
 * - a strict Content-Security-Policy: scripts only from this origin and the inline ones Remix and
 *   React write into the page, each carrying this answer's nonce (a fresh random value per answer);
 *   no inline event handlers, no eval, no plugins, no <base>, no framing; images, media and fetches
 *   from this origin only (plus data:/blob: placeholders and the map tile server when configured).
 *   Inline `style` attributes stay allowed (React lays out the grid with them); stylesheets do not.
 * - Strict-Transport-Security, only on answers that went out over HTTPS (directly, or through a
 *   trusted proxy's X-Forwarded-Proto): sent over plain HTTP it would mean nothing, and on a
 *   plain-HTTP install it would lock browsers out of the next HTTPS-less visit.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

const nonces = new WeakMap<ServerResponse, string>();

/** The CSP nonce of an answer (server.mjs puts it in the load context; entry.server renders it). */
export function cspNonceOf(res: ServerResponse): string | undefined {
  return nonces.get(res);
}

export interface SecurityHeaderOptions {
  /** TROVE_MAP_TILE_URL: its origin may serve images. */
  mapTileUrl?: string;
  /** 0: no HSTS at all. */
  hstsMaxAgeSeconds: number;
  /** Whether the request reached us over HTTPS (express' `req.secure`, which honours trusted proxies). */
  isSecure: (req: IncomingMessage) => boolean;
}

/** The policy's directives; `nonce` is this answer's. */
export function cspDirectives(
  opts: Pick<SecurityHeaderOptions, 'mapTileUrl'>,
  nonce: (req: IncomingMessage, res: ServerResponse) => string,
) {
  const tiles = opts.mapTileUrl ? [new URL(opts.mapTileUrl.replace(/[{}]/g, '')).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", nonce],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...tiles],
    'media-src': ["'self'", 'blob:'],
    'connect-src': ["'self'"],
    'font-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

export function securityHeaders(opts: SecurityHeaderOptions) {
  const csp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: cspDirectives(opts, (_req, res) => `'nonce-${nonces.get(res) ?? ''}'`),
  });
  const hsts =
    opts.hstsMaxAgeSeconds > 0
      ? helmet.strictTransportSecurity({ maxAge: opts.hstsMaxAgeSeconds, includeSubDomains: false })
      : undefined;
  return function setSecurityHeaders(req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    nonces.set(res, randomBytes(16).toString('base64'));
    csp(req, res, (err) => {
      if (err) return next(err);
      if (hsts && opts.isSecure(req)) return hsts(req, res, next);
      next();
    });
  };
}
