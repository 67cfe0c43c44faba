/** The colour theme the user chose, kept in a cookie so the server renders it. */
import { createCookie } from '@remix-run/node';
import { isTheme } from './theme';
import type { Theme } from './theme';

const themeCookie = createCookie('trove_theme', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 365 * 24 * 3600,
});

export async function readTheme(request: Request): Promise<Theme> {
  const v: unknown = await themeCookie.parse(request.headers.get('Cookie'));
  return isTheme(v) ? v : 'system';
}

export function themeSetCookie(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme);
}
