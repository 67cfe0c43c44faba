/**
 * The cross-site request check server.mjs runs before anything else, on top of SameSite=Lax
 * cookies: a request that changes state (any method but GET, HEAD, OPTIONS) must come from this
 * app's own pages, which browsers prove with the Origin header. A missing Origin, `null` (sandboxed
 * frames, some redirects, file: pages) or another site's is refused.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface AppOrigin {
  /** TROVE_WEB_PUBLIC_URL's origin: when set, the only one accepted. */
  publicOrigin?: string;
  /** Else the host the request was made to (Host, or X-Forwarded-Host from a trusted proxy). */
  host?: string;
}

export function mayChangeState(method: string, origin: string | null | undefined, app: AppOrigin): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (!origin || origin === 'null') return false;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false;
  }
  if (app.publicOrigin) return from.origin === app.publicOrigin;
  return app.host !== undefined && from.host === hostOf(from.protocol, app.host);
}

/** The host as URL writes it (lower case, no default port), so `Example.org:443` matches `https://example.org`. */
function hostOf(protocol: string, host: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}
