import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs } from '@remix-run/node';
import { safeRedirect } from '~/lib/auth.server';
import { isTheme } from '~/lib/theme';
import { themeSetCookie } from '~/lib/theme.server';

/** POST theme=system|light|dark: remembers the choice in a cookie (works without JavaScript too). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const theme = form.get('theme');
  if (!isTheme(theme)) return json({ message: 'theme must be system, light or dark' }, { status: 400 });
  const headers = { 'Set-Cookie': await themeSetCookie(theme) };
  const back = form.get('redirectTo');
  return back ? redirect(safeRedirect(back), { headers }) : json({ theme }, { headers });
}

export function loader() {
  return redirect('/');
}
