import { json } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useFetcher, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { ApiKeys } from '~/components/ApiKeys';
import { PasswordChange } from '~/components/PasswordChange';
import type { ApiKeysResult } from '~/components/ApiKeys';
import { useTheme } from '~/components/ThemeToggle';
import { Button } from '~/components/ui/Button';
import { API_KEY_NAME_PROBLEM, apiKeyName } from '~/lib/api-keys';
import { apiKeyRefusal, createApiKey, listApiKeys, revokeApiKey } from '~/lib/api-keys.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { isUuid } from '~/lib/ids';
import { StorageUse } from '~/components/StorageUse';
import { formatGigabytes } from '~/lib/format';
import { serverInfo } from '~/lib/server-info.server';
import { THEMES } from '~/lib/theme';
import type { Theme } from '~/lib/theme';
import '~/styles/settings.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export const meta: MetaFunction = () => [{ title: 'Settings · Trove' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  try {
    const [info, apiKeys] = await Promise.all([
      serverInfo(context.config.apiUrl, session.api),
      listApiKeys(session.api),
    ]);
    return json({ ...info, apiKeys, username: session.username }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

/** Making an API key (its secret is in this answer only: never cached) and revoking one. */
export async function action({ request, context }: ActionFunctionArgs) {
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const intent = form.get('intent');
  const answer = async (result: Omit<ApiKeysResult, 'created' | 'revoked'> & Partial<ApiKeysResult>, status = 200) =>
    json<ApiKeysResult>(
      { created: null, revoked: null, ...result },
      { status, headers: await session.headers({ 'Cache-Control': 'no-store' }) },
    );
  try {
    if (intent === 'create-key') {
      const name = apiKeyName(form.get('name'));
      if (!name) return await answer({ intent, error: API_KEY_NAME_PROBLEM }, 400);
      const { id, key } = await createApiKey(session.api, name);
      return await answer({ intent, error: null, created: { id, name, key } }, 201);
    }
    if (intent === 'revoke-key') {
      const id = form.get('id');
      if (!isUuid(id)) return await answer({ intent, error: 'No such key.' }, 400);
      await revokeApiKey(session.api, id);
      return await answer({ intent, error: null, revoked: id });
    }
    return json({ message: 'Unknown action.' }, { status: 400 });
  } catch (err) {
    const refusal = apiKeyRefusal(err);
    if (refusal !== null && (intent === 'create-key' || intent === 'revoke-key'))
      return await answer({ intent, error: refusal }, 400);
    throw apiFailure(err);
  }
}

const THEME_LABEL: Record<Theme, string> = { system: 'Follow the system', light: 'Light', dark: 'Dark' };
const FEATURE_LABEL: Record<string, string> = {
  albums: 'Albums',
  favourites: 'Favourites',
  hidden: 'Hidden items',
  trash: 'Trash',
  sharing: 'Sharing albums by link',
  explore: 'Explore',
  places: 'Places',
  things: 'Things',
  people: 'People',
  jobs: 'Jobs',
};

/** The theme as radio buttons: saved as soon as one is picked (with JavaScript), or with the button. */
function ThemeChoice() {
  const fetcher = useFetcher();
  const theme = useTheme();
  // The pick shows at once (not only once the save is under way), and follows the header's switch.
  const [picked, setPicked] = useState(theme);
  useEffect(() => setPicked(theme), [theme]);
  return (
    <fetcher.Form
      method="post"
      action="/theme"
      className="theme-choice"
      onChange={(e) => fetcher.submit(e.currentTarget)}
    >
      <fieldset>
        <legend>Theme</legend>
        <input type="hidden" name="redirectTo" value="/settings" />
        {THEMES.map((t) => (
          <label key={t}>
            <input type="radio" name="theme" value={t} checked={picked === t} onChange={() => setPicked(t)} />{' '}
            {THEME_LABEL[t]}
          </label>
        ))}
      </fieldset>
      <Button type="submit" size="small">
        Save theme
      </Button>
    </fetcher.Form>
  );
}

export default function Settings() {
  const { features, storage, disk, version, username, apiKeys } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
        <p className="muted">Logged in as {username}</p>
      </div>
      <div className="settings">
        <section aria-labelledby="s-appearance">
          <h2 id="s-appearance">Appearance</h2>
          <ThemeChoice />
        </section>
        <section aria-labelledby="s-password">
          <h2 id="s-password">Password</h2>
          <PasswordChange />
        </section>
        <section aria-labelledby="s-api-keys">
          <h2 id="s-api-keys">API keys</h2>
          <ApiKeys keys={apiKeys} result={actionData && 'intent' in actionData ? actionData : null} busy={busy} />
        </section>
        <section aria-labelledby="s-features">
          <h2 id="s-features">Features</h2>
          <ul className="feature-list" data-testid="features">
            {Object.entries(features).map(([name, on]) => (
              <li key={name}>
                <span>{FEATURE_LABEL[name] ?? name}</span>{' '}
                <span className={on ? 'on' : 'muted'}>{on ? 'On' : 'Off'}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="s-storage">
          <h2 id="s-storage">Your storage</h2>
          <p className="muted">Your originals, trash included.</p>
          <StorageUse storage={storage} />
        </section>
        <section aria-labelledby="s-disk">
          <h2 id="s-disk">Server disk</h2>
          {disk ? (
            <>
              {disk.total ? <progress max={disk.total} value={disk.used} aria-label="Disk used" /> : null}
              <dl className="facts" data-testid="disk">
                <dt>Used</dt>
                <dd>{formatGigabytes(disk.used)}</dd>
                {disk.free !== null ? (
                  <>
                    <dt>Free</dt>
                    <dd>{formatGigabytes(disk.free)}</dd>
                  </>
                ) : null}
                {disk.total !== null ? (
                  <>
                    <dt>Total</dt>
                    <dd>{formatGigabytes(disk.total)}</dd>
                  </>
                ) : null}
              </dl>
            </>
          ) : (
            <p className="muted">The server cannot tell its disk use right now.</p>
          )}
        </section>
        <section aria-labelledby="s-about">
          <h2 id="s-about">About</h2>
          <dl className="facts" data-testid="version">
            <dt>Version</dt>
            <dd>{version.version}</dd>
            <dt>Build</dt>
            <dd>
              <code>{version.gitSha}</code>
            </dd>
          </dl>
        </section>
      </div>
    </>
  );
}
