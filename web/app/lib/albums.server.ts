/** Albums through the API, with local content URLs. */
import { json } from '@remix-run/node';
import type { Params } from '@remix-run/react';
import { createApiClient, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import { PAGE_LIMIT } from '~/api/types';
import type { Album, AlbumSort, AlbumUpdateRequest, SharedAlbum } from '~/api/types';
import { apiFailure, requireSession } from './auth.server';
import { localizeAlbum, localizeSharedAlbum } from './content-url.server';
import type { WebContext } from './context.server';
import { isUuid } from './ids';

export const ALBUM_SORTS: { value: AlbumSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: '-updatedAt', label: 'Recently changed' },
  { value: '-createdAt', label: 'Recently created' },
];

export function parseAlbumSort(v: string | null): AlbumSort {
  return ALBUM_SORTS.find((s) => s.value === v)?.value ?? 'name';
}

/** Every album of the user (page by page; a short page is the last). */
export async function listAllAlbums(
  apiUrl: string,
  api: ApiClient,
  sort: AlbumSort = 'name',
  maxPages = 20,
): Promise<Album[]> {
  const out: Album[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const items = await ok(api.GET('/v1/albums', { params: { query: { sort, page, limit: PAGE_LIMIT } } }));
    out.push(...items.map((a) => localizeAlbum(a, apiUrl)));
    if (items.length < PAGE_LIMIT) break;
  }
  return out;
}

export async function getAlbum(apiUrl: string, api: ApiClient, id: string): Promise<Album> {
  return localizeAlbum(await ok(api.GET('/v1/albums/{id}', { params: { path: { id } } })), apiUrl);
}

/** The id of an `$albumId` route; a 404 for anything that is not an id. */
export function albumIdFrom(params: Params): string {
  const id = params.albumId;
  if (!isUuid(id)) throw json({ message: 'Not found' }, { status: 404 });
  return id;
}

/** The album of an `$albumId` route, for the signed-in user (thrown: the login page, a 404, …). */
export async function requireAlbum(request: Request, context: WebContext, params: Params): Promise<Album> {
  const id = albumIdFrom(params);
  const session = await requireSession(request, context);
  return getAlbum(context.config.apiUrl, session.api, id).catch((err: unknown) => {
    throw apiFailure(err);
  });
}

/** A shared album as its visitors see it (no owner, no owner's settings). `api`: a visitor's client (visitorApi), so that the gateway counts the call against the browser's address. */
export async function getSharedAlbum(
  apiUrl: string,
  id: string,
  api: ApiClient = createApiClient(apiUrl),
): Promise<SharedAlbum> {
  return localizeSharedAlbum(await ok(api.GET('/v1/sharing/{id}', { params: { path: { id } } })), apiUrl);
}

export async function createAlbum(
  apiUrl: string,
  api: ApiClient,
  name: string,
  description: string | null,
  ids: string[] = [],
): Promise<Album> {
  const album = await ok(api.POST('/v1/albums', { body: { name, description } }));
  if (ids.length)
    await ok(api.POST('/v1/albums/{id}/mediaItems', { params: { path: { id: album.id } }, body: { mediaItems: ids } }));
  return localizeAlbum(album, apiUrl);
}

export function updateAlbum(api: ApiClient, id: string, body: AlbumUpdateRequest): Promise<void> {
  return ok(api.PUT('/v1/albums/{id}', { params: { path: { id } }, body }));
}

export type AlbumMember = { userId: string; name: string; username: string; role: 'viewer' | 'contributor' };

/** The users the album is shared with (for its owner and its members). */
export function listMembers(api: ApiClient, id: string): Promise<AlbumMember[]> {
  return ok(api.GET('/v1/albums/{id}/members', { params: { path: { id } } }));
}

/** Shares the album with a user by user name; an unknown name answers a message for the form instead of failing. */
export async function addMember(
  api: ApiClient,
  id: string,
  username: string,
  role: 'viewer' | 'contributor',
): Promise<string | null> {
  const { error, response } = await api.POST('/v1/albums/{id}/members', {
    params: { path: { id } },
    body: { username, role },
  });
  if (response.status === 404 && error?.message === 'user not found') return `No user is called “${username}”.`;
  if (response.status === 400) return 'That is you: add another user.';
  if (!response.ok) throw response;
  return null;
}

/** Removes a member (the owner), or leaves the album (a member naming themself). */
export function removeMember(api: ApiClient, id: string, userId: string): Promise<void> {
  return ok(api.DELETE('/v1/albums/{id}/members/{userId}', { params: { path: { id, userId } } }));
}

export function deleteAlbum(api: ApiClient, id: string): Promise<void> {
  return ok(api.DELETE('/v1/albums/{id}', { params: { path: { id } } }));
}

/** Validates an album name from a form: 1–200 characters after trimming. */
export function albumName(v: FormDataEntryValue | null | undefined): string | null {
  if (typeof v !== 'string') return null;
  const name = v.trim();
  return name.length >= 1 && name.length <= 200 ? name : null;
}

export function albumDescription(v: FormDataEntryValue | null | undefined): string | null {
  if (typeof v !== 'string') return null;
  const d = v.trim();
  return d ? d.slice(0, 2000) : null;
}

/**
 * A link's expiry from the album page's form: `never` → null; else `expiresAt` (a `datetime-local`
 * value, in the browser's zone `tzOffset` minutes behind UTC, as getTimezoneOffset says) → an
 * instant in the future, or a message for the form.
 */
export function shareExpiryFrom(form: FormData, now = Date.now()): { value: string | null } | { error: string } {
  if (form.get('never') === 'true') return { value: null };
  const local = String(form.get('expiresAt') ?? '');
  const offset = Number(form.get('tzOffset') ?? 0);
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local) ? Date.parse(`${local}Z`) : NaN;
  if (Number.isNaN(at) || !Number.isFinite(offset) || Math.abs(offset) > 24 * 60)
    return { error: 'Pick a date and time, or “Never”.' };
  const when = at + offset * 60_000;
  if (when <= now) return { error: 'Pick a time in the future.' };
  return { value: new Date(when).toISOString() };
}

/** Which of these items the album holds as the user sees it (what the add picker marks as already there). */
export async function albumItemsHeld(api: ApiClient, id: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const held = await ok(
    api.POST('/v1/albums/{id}/mediaItems/exist', { params: { path: { id } }, body: { mediaItems: ids } }),
  );
  return held.mediaItems;
}
