/**
 * Places, things and people through the API: the rows of /explore, an entry by id, and an item's
 * entries for the viewer. Every content URL is made local (content-url.server.ts).
 */
import { ApiError, ok } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import { PAGE_LIMIT } from '~/api/types';
import type { Face, Person, Place, Thing } from '~/api/types';
import { localizeItem, localizeUrl } from './content-url.server';
import type { ItemEntries } from './explore';

type Covered = Place | Thing;

function localizeCovered<T extends Covered>(entry: T, apiUrl: string): T {
  return {
    ...entry,
    thumbnailUrl: entry.thumbnailUrl ? localizeUrl(entry.thumbnailUrl, apiUrl) : null,
    ...(entry.coverMediaItem ? { coverMediaItem: localizeItem(entry.coverMediaItem, apiUrl) } : {}),
  };
}

export function localizePerson(person: Person, apiUrl: string): Person {
  const face = person.coverMediaItemFace;
  if (!face || !('thumbnail' in face)) return person;
  const thumbnail = localizeUrl(face.thumbnail, apiUrl);
  return { ...person, coverMediaItemFace: { ...face, thumbnail, thumbnailUrl: thumbnail } };
}

export async function listPlaces(apiUrl: string, api: ApiClient, limit = PAGE_LIMIT): Promise<Place[]> {
  const places = await ok(api.GET('/v1/explore/places', { params: { query: { page: 1, limit } } }));
  return places.map((p) => localizeCovered(p, apiUrl));
}

export async function listThings(apiUrl: string, api: ApiClient, limit = PAGE_LIMIT): Promise<Thing[]> {
  const things = await ok(api.GET('/v1/explore/things', { params: { query: { page: 1, limit } } }));
  return things.map((t) => localizeCovered(t, apiUrl));
}

/** The people list; `hidden` lists only the people the user hid (the API leaves them out otherwise). */
export async function listPeople(
  apiUrl: string,
  api: ApiClient,
  { hidden = false, limit = PAGE_LIMIT }: { hidden?: boolean; limit?: number } = {},
): Promise<Person[]> {
  const people = await ok(
    api.GET('/v1/explore/people', { params: { query: { page: 1, limit, ...(hidden ? { hidden: true } : {}) } } }),
  );
  return people.map((p) => localizePerson(p, apiUrl));
}

export async function getPlace(apiUrl: string, api: ApiClient, id: string): Promise<Place> {
  return localizeCovered(await ok(api.GET('/v1/explore/places/{id}', { params: { path: { id } } })), apiUrl);
}

export async function getThing(apiUrl: string, api: ApiClient, id: string): Promise<Thing> {
  return localizeCovered(await ok(api.GET('/v1/explore/things/{id}', { params: { path: { id } } })), apiUrl);
}

export async function getPerson(apiUrl: string, api: ApiClient, id: string): Promise<Person> {
  return localizePerson(await ok(api.GET('/v1/explore/people/{id}', { params: { path: { id } } })), apiUrl);
}

/** Names, hides or shows a person, or chooses their cover (`null`: the newest photo); fields left out stay. */
export async function updatePerson(
  api: ApiClient,
  id: string,
  change: { name?: string; hidden?: boolean; coverMediaItemId?: string | null },
): Promise<void> {
  await ok(api.PUT('/v1/explore/people/{id}', { params: { path: { id } }, body: change }));
}

/** Moves every face of `others` to the person `id` and removes them (cannot be undone). */
export async function mergePeople(api: ApiClient, id: string, others: string[]): Promise<void> {
  await ok(api.POST('/v1/explore/people/{id}/merge', { params: { path: { id } }, body: { people: others } }));
}

/** The person's faces (newest photo first), each with its local thumbnail: what the user corrects. */
export async function listPersonFaces(apiUrl: string, api: ApiClient, id: string, limit = 100): Promise<Face[]> {
  const faces = await ok(
    api.GET('/v1/explore/people/{id}/faces', { params: { path: { id }, query: { page: 1, limit } } }),
  );
  return faces.map((f) => {
    const thumbnail = localizeUrl(f.thumbnail, apiUrl);
    return { ...f, thumbnail, thumbnailUrl: thumbnail };
  });
}

/** Gives a face to a person for good (grouping never moves it again). */
export async function assignPersonFace(api: ApiClient, id: string, faceId: string): Promise<void> {
  await ok(api.PUT('/v1/explore/people/{id}/faces/{faceId}', { params: { path: { id, faceId } } }));
}

/** Not this person: the face leaves them and is never grouped into them again. */
export async function removePersonFace(api: ApiClient, id: string, faceId: string): Promise<void> {
  await ok(api.DELETE('/v1/explore/people/{id}/faces/{faceId}', { params: { path: { id, faceId } } }));
}

/** A list of the panel's, or none when the API cannot give it; an ended session still ends the call (to the login). */
function orNone<T>(call: Promise<T[]>): Promise<T[]> {
  return call.catch((err: unknown) => {
    // The session over: `refresh` threw the answer that ends it (the login, or 401 to a fetch).
    if (err instanceof Response || (err instanceof ApiError && err.status === 401)) throw err;
    return [];
  });
}

/**
 * An item's entries. Each list on its own: one the API cannot give (explore down or switched off, people not served
 * yet) is empty rather than failing the others.
 */
export async function itemEntries(api: ApiClient, id: string): Promise<ItemEntries> {
  const path = { params: { path: { id } } };
  const [places, things, people, albums] = await Promise.all([
    orNone(ok(api.GET('/v1/mediaItems/{id}/places', path))),
    orNone(ok(api.GET('/v1/mediaItems/{id}/things', path))),
    orNone(ok(api.GET('/v1/mediaItems/{id}/people', path))),
    orNone(ok(api.GET('/v1/mediaItems/{id}/albums', path))),
  ]);
  return {
    places: places.map((p) => ({ id: p.id, name: p.name, country: p.country })),
    things: things.map((t) => ({ id: t.id, name: t.name })),
    people: people.map((p) => ({ id: p.id, name: p.name })),
    albums: albums.map((a) => ({ id: a.id, name: a.name })),
  };
}
