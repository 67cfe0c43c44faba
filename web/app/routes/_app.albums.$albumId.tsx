import { json, redirect } from '@remix-run/node';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useMemo, useState } from 'react';
import { AlbumDetailsDialog } from '~/components/AlbumDetailsDialog';
import { MediaBrowser } from '~/components/MediaBrowser';
import { MembersPanel } from '~/components/MembersPanel';
import type { BulkAction } from '~/components/SelectionBar';
import { useUploadTarget } from '~/components/Uploads';
import { ShareControl } from '~/components/ShareControl';
import { Button, buttonClass } from '~/components/ui/Button';
import { EmptyState } from '~/components/ui/EmptyState';
import { Icon } from '~/components/ui/Icon';
import { Modal } from '~/components/ui/Modal';
import {
  addMember,
  albumDescription,
  albumIdFrom,
  albumName,
  deleteAlbum,
  listMembers,
  removeMember,
  requireAlbum,
  shareExpiryFrom,
  updateAlbum,
} from '~/lib/albums.server';
import { ok } from '~/api/client.server';
import { apiFailure, requireSession } from '~/lib/auth.server';
import { plural } from '~/lib/format';
import { loadMediaPage } from '~/lib/media-page-loader.server';
import '~/styles/albums.css';

export { RouteErrorBoundary as ErrorBoundary } from '~/components/ErrorPage';
export { keepOnViewerChange as shouldRevalidate } from '~/lib/revalidate';
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.album.name ?? 'Album'} · Trove` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const album = await requireAlbum(request, context, params);
  const shareUrl = `${new URL(request.url).origin}/share/${album.id}`;
  const session = await requireSession(request, context);
  const owner = album.role === 'owner';
  // Whose items are whose: members' items sit beside the owner's, and the viewer names who added one.
  const [members, me] = await Promise.all([
    listMembers(session.api, album.id).catch(() => []),
    owner ? album.userId : ok(session.api.GET('/v1/account')).then((a) => a.id),
  ]);
  const names = Object.fromEntries([[album.userId, album.owner.name], ...members.map((m) => [m.userId, m.name])]);
  return loadMediaPage(
    request,
    context,
    { kind: 'album', albumId: album.id },
    { album, shareUrl, members: owner ? members : [], me, names },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = albumIdFrom(params);
  // The session first: nobody without one gets their body read.
  const session = await requireSession(request, context);
  const form = await request.formData();
  const intent = form.get('intent');
  try {
    switch (intent) {
      case 'edit': {
        const name = albumName(form.get('name'));
        if (!name) return json({ error: 'Give the album a name (up to 200 characters).' }, { status: 400 });
        await updateAlbum(session.api, id, { name, description: albumDescription(form.get('description')) });
        break;
      }
      case 'share':
        await updateAlbum(session.api, id, { shared: form.get('shared') === 'true' });
        break;
      case 'share-location':
        await updateAlbum(session.api, id, { shareLocation: form.get('shareLocation') === 'true' });
        break;
      case 'share-download':
        await updateAlbum(session.api, id, { shareAllowDownload: form.get('shareAllowDownload') === 'true' });
        break;
      case 'share-expiry': {
        const expiry = shareExpiryFrom(form);
        if ('error' in expiry) return json({ error: expiry.error }, { status: 400, headers: await session.headers() });
        await updateAlbum(session.api, id, { shareExpiresAt: expiry.value });
        break;
      }
      case 'share-password': {
        // Removing clears it (null); the password itself is never answered back.
        const password = form.get('remove') === 'true' ? null : String(form.get('password') ?? '');
        if (password !== null && (password.length < 1 || password.length > 200))
          return json(
            { error: 'Give a password (up to 200 characters).' },
            { status: 400, headers: await session.headers() },
          );
        await updateAlbum(session.api, id, { sharePassword: password });
        break;
      }
      case 'add-member': {
        const username = String(form.get('username') ?? '').trim();
        const role = form.get('role') === 'contributor' ? 'contributor' : 'viewer';
        if (!username) return json({ error: 'Give a user name.' }, { status: 400 });
        const error = await addMember(session.api, id, username, role);
        if (error) return json({ error }, { status: 400, headers: await session.headers() });
        break;
      }
      case 'remove-member':
        await removeMember(session.api, id, String(form.get('userId') ?? ''));
        break;
      case 'leave': {
        // The account's own id: a member removes themself.
        const me = await ok(session.api.GET('/v1/account'));
        await removeMember(session.api, id, me.id);
        return redirect('/albums', { headers: await session.headers() });
      }
      case 'delete':
        await deleteAlbum(session.api, id);
        return redirect('/albums', { headers: await session.headers() });
      default:
        return json({ error: 'Unknown action.' }, { status: 400 });
    }
    return json({ error: null }, { headers: await session.headers() });
  } catch (err) {
    throw apiFailure(err);
  }
}

export default function AlbumPage() {
  const { album, items, focus, shareUrl, members, me, names } = useLoaderData<typeof loader>();
  const owner = album.role === 'owner';
  const bulk: BulkAction[] = owner
    ? ['removeFromAlbum', 'setCover', 'favourite', 'addToAlbum', 'download', 'trash']
    : album.role === 'contributor'
      ? ['removeFromAlbum', 'download']
      : ['download'];
  // Everyone downloads what the album shows; the owner takes anyone's item out of it or makes it the cover; the rest is
  // for one's own items.
  const others = useMemo(
    () => ({ me, names, bulk: (owner ? ['removeFromAlbum', 'setCover', 'download'] : ['download']) as BulkAction[] }),
    [me, names, owner],
  );
  // Uploads made on this page go into the album too, for whoever may add to it.
  useUploadTarget(album.role === 'viewer' ? null : { albumId: album.id, name: album.name });
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (navigation.state === 'idle' && actionData && !actionData.error) setEditing(false);
  }, [navigation.state, actionData]);

  return (
    <>
      <div className="page-head album-head">
        <p className="crumb">
          <Link to="/albums">Albums</Link>
        </p>
        <h1>{album.name}</h1>
        {album.description ? <p className="album-description">{album.description}</p> : null}
        <p className="muted" data-testid="album-count">
          {plural(album.mediaItemsCount, 'item')}
        </p>
        {owner ? null : (
          <p className="muted" data-testid="album-owner">
            Shared with you by {album.owner.name} ·{' '}
            <span className={`role-badge role-${album.role}`}>{album.role}</span>
          </p>
        )}
        <div className="album-tools">
          {album.role !== 'viewer' ? (
            <Link to={`/albums/${album.id}/add`} className={buttonClass({ variant: 'primary' })}>
              <Icon name="plus" size={20} /> Add photos
            </Link>
          ) : null}
          {album.mediaItemsCount > 0 ? (
            <a href={`/api/albums/${album.id}/download`} className={buttonClass()} download>
              <Icon name="download" size={20} /> Download album
            </a>
          ) : null}
          {owner ? (
            <>
              <Button onClick={() => setEditing(true)}>
                <Icon name="edit" size={20} /> Edit
              </Button>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                <Icon name="trash" size={20} /> Delete album
              </Button>
            </>
          ) : (
            <LeaveAlbum />
          )}
        </div>
        {owner ? (
          <ShareControl
            shared={album.shared}
            shareLocation={album.shareLocation}
            allowDownload={album.shareAllowDownload}
            expiresAt={album.shareExpiresAt}
            passwordSet={album.sharePasswordSet}
            url={shareUrl}
          />
        ) : null}
        {owner ? <MembersPanel members={members} error={editing ? null : actionData?.error} /> : null}
      </div>

      <MediaBrowser
        key={album.id}
        view={{ kind: 'album', albumId: album.id }}
        initial={items}
        focus={focus}
        label={`Photos and videos in ${album.name}`}
        bulk={bulk}
        others={others}
        onAlbumChanged={() => revalidator.revalidate()}
        empty={
          <EmptyState icon="album" title="This album is empty">
            <p>Add photos from your library, or select some in Photos and choose “Add to album”.</p>
            <Link to={`/albums/${album.id}/add`} className={buttonClass({ variant: 'primary' })}>
              Add photos
            </Link>
          </EmptyState>
        }
      />

      {editing ? (
        <AlbumDetailsDialog
          title="Edit album"
          submitLabel="Save"
          album={album}
          intent="edit"
          error={actionData?.error}
          busy={navigation.state === 'submitting'}
          onClose={() => setEditing(false)}
        />
      ) : null}

      {deleting ? (
        <Modal title="Delete this album?" onClose={() => setDeleting(false)}>
          <p>“{album.name}” will be deleted. Its photos and videos stay in your library.</p>
          <Form method="post" className="form-actions">
            <input type="hidden" name="intent" value="delete" />
            <Button onClick={() => setDeleting(false)}>Cancel</Button>
            <Button type="submit" variant="danger">
              Delete album
            </Button>
          </Form>
        </Modal>
      ) : null}
    </>
  );
}

/** A member leaves the album: their own membership ends (the session's user, which the gateway knows). */
function LeaveAlbum() {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="leave" />
      <Button type="submit">Leave album</Button>
    </Form>
  );
}
