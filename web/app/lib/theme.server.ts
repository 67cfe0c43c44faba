/** The colour theme the user chose: `system` (follow prefers-color-scheme, the default), `light` or `dark`. */
import { createCookie } from '@remix-run/node';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const themeCookie = createCookie('trove_theme', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 365 * 24 * 3600 });

export function isTheme(v: unknown): v is Theme {
  return typeof v === 'string' && (THEMES as readonly string[]).includes(v);
}

export async function readTheme(request: Request): Promise<Theme> {
  const v: unknown = await themeCookie.parse(request.headers.get('Cookie'));
  return isTheme(v) ? v : 'system';
}

export function themeSetCookie(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme);
}
