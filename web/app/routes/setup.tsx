import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { Brand } from '~/components/Brand';
import { Button } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { readSession } from '~/lib/auth.server';
import { createFirstUser, needsSetup } from '~/lib/setup.server';
import { loginWithPassword } from '~/lib/tokens.server';
import { DEFAULT_ADMIN_USERNAME, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, newUser } from '~/lib/user-form';
import '~/styles/login.css';

export const meta: MetaFunction = () => [{ title: 'Set up Trove' }];

/** Offered only while no account exists: afterwards (or logged in) this is the login page's business. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await readSession(request, context)) return redirect('/');
  if (!(await needsSetup(context.config.apiUrl))) return redirect('/login');
  return json({ adminUsername: DEFAULT_ADMIN_USERNAME }, { headers: { 'Cache-Control': 'no-store' } });
}

type ActionData = { error: string; field?: 'admin'; adminUsername: string; name: string; username: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const text = (key: string) => {
    const v = form.get(key);
    return typeof v === 'string' ? v : '';
  };
  const adminUsername = text('adminUsername').trim() || DEFAULT_ADMIN_USERNAME;
  const adminPassword = text('adminPassword');
  const kept = { adminUsername, name: text('name'), username: text('username').trim() };
  const fail = (status: number, error: string, field?: 'admin') =>
    json<ActionData>(
      { error, ...(field ? { field } : {}), ...kept },
      { status, headers: { 'Cache-Control': 'no-store' } },
    );

  // The admin API would create more accounts anyway; this page is for the first one only.
  if (!(await needsSetup(context.config.apiUrl)))
    return fail(409, 'Trove is already set up: log in, or let the administrator create your account.');
  if (!adminPassword) return fail(400, 'Enter the administrator password.', 'admin');
  const parsed = newUser(form);
  if ('error' in parsed) return fail(400, parsed.error);

  const client = { address: context.clientAddress, proxySecret: context.config.proxySecret };
  const created = await createFirstUser(
    context.config.apiUrl,
    { username: adminUsername, password: adminPassword },
    parsed.user,
    client,
  );
  if (!created.ok) return fail(created.status, created.message, created.field);

  const login = await loginWithPassword(context.config.apiUrl, parsed.user.username, parsed.user.password, client);
  if (!login.ok) return redirect('/login');
  const { accessToken, refreshToken, expiresIn } = login.tokens;
  const cookie = await context.sessions.commit(request, {
    accessToken,
    refreshToken,
    expiresAt: Date.now() + expiresIn * 1000,
    username: parsed.user.username,
  });
  return redirect('/', { headers: { 'Set-Cookie': cookie } });
}

export default function Setup() {
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formAction === '/setup';
  return (
    <main className="login">
      <div className="login-card setup-card">
        <Brand large />
        <h1>Set up Trove</h1>
        <p className="setup-intro">
          No account exists yet. Make the first one with the administrator’s credentials: the user name is{' '}
          <code>admin</code> unless <code>TROVE_ADMIN_USERNAME</code> says otherwise, and the password is the one{' '}
          <code>make up</code> names — the file <code>data/secrets/admin-password</code>, or{' '}
          <code>TROVE_ADMIN_PASSWORD</code>.
        </p>
        <Form method="post" replace noValidate aria-describedby={data?.error ? 'setup-error' : undefined}>
          <fieldset>
            <legend>Administrator</legend>
            <label htmlFor="adminUsername">Administrator user name</label>
            <input
              id="adminUsername"
              name="adminUsername"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              defaultValue={data?.adminUsername ?? DEFAULT_ADMIN_USERNAME}
            />
            <label htmlFor="adminPassword">Administrator password</label>
            <input
              id="adminPassword"
              name="adminPassword"
              type="password"
              autoComplete="off"
              required
              aria-invalid={data?.field === 'admin' || undefined}
            />
          </fieldset>
          <fieldset>
            <legend>Your account</legend>
            <label htmlFor="name">Name</label>
            <input
              id="name"
              name="name"
              required
              maxLength={NAME_MAX}
              autoComplete="name"
              defaultValue={data?.name ?? ''}
            />
            <label htmlFor="username">Username</label>
            <input
              id="username"
              name="username"
              required
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              defaultValue={data?.username ?? ''}
            />
            <label htmlFor="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              required
              minLength={PASSWORD_MIN}
              maxLength={PASSWORD_MAX}
              autoComplete="new-password"
            />
          </fieldset>
          <FormError id="setup-error">{data?.error}</FormError>
          <Button type="submit" variant="primary" wide disabled={busy}>
            {busy ? 'Setting up…' : 'Create the account and log in'}
          </Button>
        </Form>
        <p className="setup-back">
          <Link to="/login">Back to log in</Link>
        </p>
      </div>
    </main>
  );
}
