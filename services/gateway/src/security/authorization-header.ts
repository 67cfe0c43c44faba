/** Parsers for the Authorization header. Anything unexpected is "no credentials", never an exception. */

export interface BasicCredentials {
  username: string;
  password: string;
}

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;
// RFC 6750 b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  const m = header ? BASIC.exec(header) : null;
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function parseBearer(header: string | undefined): string | undefined {
  const m = header ? BEARER.exec(header) : null;
  return m ? m[1] : undefined;
}
