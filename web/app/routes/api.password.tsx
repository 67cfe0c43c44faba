/** The settings page's "change your password" form: POST currentPassword, newPassword, confirmPassword → JSON. */
import { json } from '@remix-run/node';
import type { ActionFunctionArgs } from '@remix-run/node';
import { apiFailure, requireSession } from '~/lib/auth.server';
import type { AuthedSession } from '~/lib/auth.server';
import { passwordChangeFrom, passwordRefusal } from '~/lib/password-change';
import type { PasswordField } from '~/lib/password-change';

export interface PasswordChangeResult {
  done: boolean;
  error: string | null;
  field?: PasswordField;
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read. Without one the form says so (a
  // thrown 401 would replace the settings page with an error page).
  let session: AuthedSession;
  try {
    session = await requireSession(request, context, 'api');
  } catch (err) {
    if (err instanceof Response && err.status === 401)
      return json<PasswordChangeResult>(
        { done: false, error: 'Your session ended: log in again, then retry.' },
        { status: 401, headers: err.headers },
      );
    throw err;
  }
  const answer = async (result: PasswordChangeResult, status = 200) =>
    json(result, { status, headers: await session.headers({ 'Cache-Control': 'no-store' }) });
  const change = passwordChangeFrom(await request.formData());
  if ('error' in change) return answer({ done: false, ...change }, 400);
  try {
    const { error, response } = await session.api.PUT('/v1/account/password', { body: change });
    if (response.ok) return await answer({ done: true, error: null });
    if (response.status === 400 || response.status === 429) {
      const message = (error as { message?: unknown } | undefined)?.message;
      const retryAfter = Number(response.headers.get('Retry-After'));
      const refusal = passwordRefusal(response.status, typeof message === 'string' ? message : '', retryAfter);
      return await answer({ done: false, ...refusal }, response.status);
    }
    return await answer({ done: false, ...passwordRefusal(response.status, '') }, response.status);
  } catch (err) {
    throw apiFailure(err);
  }
}
