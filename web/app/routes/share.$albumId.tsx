import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  Form,
  isRouteErrorResponse,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from '@remix-run/react';
import { ErrorPage } from '~/components/ErrorPage';
import { LocalTime } from '~/components/LocalTime';
import { MediaBrowser } from '~/components/MediaBrowser';
import { StandalonePage } from '~/components/StandalonePage';
import { Button, buttonClass } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { FormError } from '~/components/ui/FormError';
import { Icon } from '~/components/ui/Icon';
import { ApiError } from '~/api/client.server';
import { albumIdFrom, getSharedAlbum } from '~/lib/albums.server';
import { apiFailure } from '~/lib/auth.server';
import { plural } from '~/lib/format';
import { listView } from '~/lib/media-items.server';
import { clearShareTokenCookie, readShareToken, shareTokenCookie } from '~/lib/share-token.server';
import { visitorApi } from '~/lib/visitor.server';
import '~/styles/albums.css';
import '~/styles/shell.css';

export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && !data.locked ? `${data.album.name} · shared with Trove` : 'Shared album · Trove' },
  { name: 'robots', content: 'noindex' },
];

const HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** A shared album, for anyone with the link: no session involved at all (a password's unlock token in its own cookie). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = albumIdFrom(params);
  const token = await readShareToken(request, id);
  try {
    // As the visitor: the gateway's sharing limits count per browser, not per web server.
    const api = visitorApi(context, token);
    const [album, items] = await Promise.all([
      getSharedAlbum(context.config.apiUrl, id, api),
      listView(context.config.apiUrl, api, { kind: 'shared', albumId: id }, 1),
    ]);
    return json({ locked: false as const, album, items }, { headers: HEADERS });
  } catch (err) {
    // A password the visitor has not given (or a token the owner ended by changing it): the prompt.
    if (err instanceof ApiError && err.status === 401) {
      const headers = new Headers(HEADERS);
      if (token) headers.append('Set-Cookie', await clearShareTokenCookie(request, id));
      return json({ locked: true as const }, { headers });
    }
    throw apiFailure(err);
  }
}

/** The password prompt: the gateway checks it and answers a token, which the visitor's cookie keeps. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = albumIdFrom(params);
  const form = await request.formData();
  const password = String(form.get('password') ?? '');
  if (!password || password.length > 200) return json({ error: 'Enter the link’s password.' }, { status: 400 });
  const { data, error, response } = await visitorApi(context).POST('/v1/sharing/{id}/unlock', {
    params: { path: { id } },
    body: { password },
  });
  if (data) {
    return redirect(`/share/${id}`, { headers: { 'Set-Cookie': await shareTokenCookie(request, id, data.token) } });
  }
  if (response.status === 429) {
    const after = Number(response.headers.get('Retry-After'));
    const wait = Number.isFinite(after) && after > 0 ? ` in ${plural(after, 'second')}` : ' later';
    return json({ error: `Too many attempts, try again${wait}.` }, { status: 429 });
  }
  if (response.status === 401) return json({ error: error?.message ?? 'wrong password' }, { status: 401 });
  // No such link, or no password any more (400): the page says what is there now.
  if (response.status === 400) return redirect(`/share/${id}`);
  throw apiFailure(new ApiError(response.status, error?.message ?? `the API answered ${response.status}`));
}

export default function SharedAlbum() {
  const data = useLoaderData<typeof loader>();
  if (data.locked) return <PasswordPrompt />;
  const { album, items } = data;
  return (
    <StandalonePage kind="shared">
      <div className="page-head">
        <p className="crumb">Shared album</p>
        <h1>{album.name}</h1>
        {album.description ? <p className="album-description">{album.description}</p> : null}
        <p className="muted" data-testid="album-count">
          {plural(album.mediaItemsCount, 'item')}
        </p>
        {album.expiresAt ? (
          <p className="muted" data-testid="share-expiry">
            This link expires on <LocalTime iso={album.expiresAt} />.
          </p>
        ) : null}
        {album.allowDownload && album.mediaItemsCount > 0 ? (
          <div className="album-tools">
            <a href={`/share/${album.id}/download`} className={buttonClass()} download>
              <Icon name="download" size={20} /> Download album
            </a>
          </div>
        ) : null}
      </div>
      <MediaBrowser
        view={{ kind: 'shared', albumId: album.id }}
        initial={items}
        label={`Photos and videos in ${album.name}`}
        empty={
          <EmptyState title="Nothing to see yet">
            <p>This album has no photos or videos.</p>
          </EmptyState>
        }
      />
    </StandalonePage>
  );
}

function PasswordPrompt() {
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const error = actionData && 'error' in actionData ? actionData.error : null;
  return (
    <StandalonePage kind="shared">
      <div className="page-head share-unlock">
        <p className="crumb">Shared album</p>
        <h1>This album has a password</h1>
        <p className="muted">Its owner shared it with a password. Enter it to see the photos and videos.</p>
        <Form method="post" replace noValidate aria-describedby={error ? 'unlock-error' : undefined}>
          <label htmlFor="share-password">Password</label>
          <input
            id="share-password"
            name="password"
            type="password"
            autoComplete="off"
            required
            maxLength={200}
            aria-invalid={error ? true : undefined}
          />
          <FormError id="unlock-error">{error}</FormError>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Opening…' : 'Open album'}
          </Button>
        </Form>
      </div>
    </StandalonePage>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="error-page" aria-labelledby="error-title">
        <h1 id="error-title">This link does not work</h1>
        <p>The album it pointed to was deleted, or its owner stopped sharing it.</p>
      </main>
    );
  }
  return <ErrorPage error={error} />;
}
