/**
 * Where a browser whose session ended goes: the login page, told where to come back to. The home page is where login
 * leads anyway, so it is left out — the server's redirects and the browser's JSON calls then agree on one address.
 */
export function loginUrl(returnTo: string): string {
  return returnTo === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(returnTo)}`;
}
