import { redirect } from '@remix-run/node';
import type { ActionFunctionArgs } from '@remix-run/node';
import { logoutSession } from '~/lib/tokens.server';

/** POST: ends the API session, clears the cookie, back to the login page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await context.sessions.read(request);
  if (session) {
    let token = session.accessToken;
    // An expired access token cannot end the session: exchange the refresh token first.
    if (session.expiresAt - Date.now() < 5_000)
      token = await context.refresher.refresh(session.refreshToken).then(
        (t) => t.accessToken,
        () => token,
      );
    await logoutSession(context.config.apiUrl, token);
  }
  return redirect('/login', { headers: { 'Set-Cookie': await context.sessions.destroy(request) } });
}

export function loader() {
  return redirect('/');
}
