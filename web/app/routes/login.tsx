import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { Brand } from '~/components/Brand';
import { Button, buttonClass } from '~/components/ui/Button';
import { FormError } from '~/components/ui/FormError';
import { readSession, safeRedirect } from '~/lib/auth.server';
import { needsSetup } from '~/lib/setup.server';
import { loginErrorMessage, loginWithPassword } from '~/lib/tokens.server';
import '~/styles/login.css';

export const meta: MetaFunction = () => [{ title: 'Log in · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await readSession(request, context)) {
    return redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')));
  }
  // A first run (no account yet): say how to get one.
  return json({ needsSetup: await needsSetup(context.config.apiUrl) });
}

type ActionData = { error: string; field?: 'username' | 'password'; username: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const username = String(form.get('username') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!username)
    return json<ActionData>({ error: 'Enter your username.', field: 'username', username }, { status: 400 });
  if (!password)
    return json<ActionData>({ error: 'Enter your password.', field: 'password', username }, { status: 400 });

  const result = await loginWithPassword(context.config.apiUrl, username, password, {
    address: context.clientAddress,
    proxySecret: context.config.proxySecret,
  });
  if (!result.ok) {
    const status = result.failure.kind === 'credentials' ? 401 : result.failure.kind === 'rate-limited' ? 429 : 503;
    return json<ActionData>({ error: loginErrorMessage(result.failure), username }, { status });
  }
  const { accessToken, refreshToken, expiresIn } = result.tokens;
  const cookie = await context.sessions.commit(request, {
    accessToken,
    refreshToken,
    expiresAt: Date.now() + expiresIn * 1000,
    username,
  });
  return redirect(safeRedirect(form.get('redirectTo')), { headers: { 'Set-Cookie': cookie } });
}

export default function Login() {
  const { needsSetup: firstRun } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formAction === '/login';
  const passwordRef = useRef<HTMLInputElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (data?.field === 'username') usernameRef.current?.focus();
    else if (data?.error) passwordRef.current?.select();
  }, [data]);

  return (
    <main className="login">
      <div className="login-card">
        <Brand large />
        <p className="tagline">Smarter Home for all your Photos and Videos</p>
        {firstRun ? (
          <section className="setup-offer" aria-labelledby="setup-offer-title">
            <h2 id="setup-offer-title">Welcome: no account exists yet</h2>
            <p>
              Create the first one with the administrator password that <code>make up</code> names (in{' '}
              <code>data/secrets/admin-password</code>).
            </p>
            <Link to="/setup" className={buttonClass({ variant: 'primary', wide: true })}>
              Set up Trove
            </Link>
          </section>
        ) : null}
        <h1>Log in</h1>
        <Form method="post" replace noValidate aria-describedby={data?.error ? 'login-error' : undefined}>
          <input type="hidden" name="redirectTo" value={params.get('redirectTo') ?? '/'} />
          <label htmlFor="username">Username</label>
          <input
            ref={usernameRef}
            id="username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            defaultValue={data?.username ?? ''}
            aria-invalid={data?.field === 'username' || undefined}
          />
          <label htmlFor="password">Password</label>
          <input
            ref={passwordRef}
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={data?.field === 'password' || (data?.error && !data.field) || undefined}
          />
          <FormError id="login-error">{data?.error}</FormError>
          <Button type="submit" variant="primary" wide disabled={busy}>
            {busy ? 'Logging in…' : 'Log in'}
          </Button>
        </Form>
      </div>
    </main>
  );
}
