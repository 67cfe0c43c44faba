/**
 * Users with something to protect: each has a processed photo and an album holding it, and, where
 * the service exists, a job and the places, things and people the photo gave. The matrix attacks
 * one user's library from another's account; `viewOf` reads everything a user can see, so the
 * test can prove the attack changed nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listOperations } from '@trove/openapi';
import { waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { FIXTURES, heicFixture, jpegWithExif, noiseImage } from '@trove/kit/testing/media';
import { adminApi, newUser, ok, uniqueName, uploadReady } from '../support/api';
import type { TestUser } from '../support/api';
import type { SecretLedger } from '../support/secrets';
import { send } from '../support/raw';
import type { RawAnswer } from '../support/raw';
import { kindOfPath, urlFor, validBody } from './contract';

/** The gateway's answer to a path no route serves yet (a declared call whose issue has not landed). */
export const NOT_IMPLEMENTED = { message: 'not found' };

export function isNotImplemented(res: { status: number; body: unknown }): boolean {
  return res.status === 404 && JSON.stringify(res.body) === JSON.stringify(NOT_IMPLEMENTED);
}

export interface Library {
  user: TestUser;
  /** One resource id of the user's per kind (`mediaItems`, `albums`, …); absent where the service does not serve that kind yet. */
  ids: Record<string, string | undefined>;
  /** The ids of the user's resources: what an attacker is assumed to know. */
  knownIds: string[];
  /** What identifies the user's data in an answer: ids, filename, album name, username. */
  markers: string[];
}

/** A password per user, recorded for the log check. */
export async function securityUser(stack: Stack, secrets: SecretLedger): Promise<TestUser> {
  const username = uniqueName('sec');
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const user = await newUser(stack, { username, password });
  secrets.password(username, password);
  secrets.tokens(username, { accessToken: user.token, refreshToken: user.refreshToken });
  return user;
}

/** A call as the user, by method and URL, with an optional JSON body. */
export function callAs(
  stack: Stack,
  user: TestUser | undefined,
  method: string,
  url: string,
  json?: unknown,
): Promise<RawAnswer> {
  return send(stack.gatewayUrl + url, { method, json, headers: user ? { Authorization: `Bearer ${user.token}` } : {} });
}

/** The collection call listing a kind's resources, for kinds the user does not create themselves (explore). */
function listCallOf(kind: string) {
  return listOperations().find(
    (o) => o.method === 'get' && o.security === 'bearer' && !o.path.includes('{') && o.path.endsWith(`/${kind}`),
  );
}

/** The call creating a kind's resource from a JSON body (`POST /v1/<kind>`), if the contract has one. */
function createCallOf(kind: string) {
  return listOperations().find((o) => o.method === 'post' && o.security === 'bearer' && o.path === `/v1/${kind}`);
}

/**
 * Photos that give a kind its first resource where the library's own photo (a JPEG with a GPS
 * position) is not enough. `isTheItem`: the photo becomes the library's media item too, so a call
 * naming both (a person and their cover photo) names a photo of theirs.
 */
const PHOTO_FOR: Record<string, { filename: string; data: () => Promise<Buffer>; isTheItem?: true }> = {
  things: { filename: 'IMG_0543.HEIC', data: heicFixture },
  people: { filename: 'faces.jpg', data: () => readFile(join(FIXTURES, 'faces.jpg')), isTheItem: true },
};

/** Kinds whose ids come with a resource of another kind: a face is a person's cover face. */
const ID_FROM: Record<string, { kind: string; field: string }> = {
  faces: { kind: 'people', field: 'coverMediaItemFaceId' },
};

/** How long the services may take to derive a resource from a processed photo (explore files it after the worker). */
const DERIVED_WITHIN_MS = 60_000;

/**
 * One resource of `kind` for the user: created through its POST call, else the first of its list
 * (once the photos have given one). Undefined when the route answers the gateway's "not found"
 * (not implemented yet). Throws when the kind is served but the user gets none: the matrix would
 * have nothing real to attack.
 */
async function resourceOf(
  stack: Stack,
  user: TestUser,
  kind: string,
  known: Record<string, string | undefined>,
): Promise<string | undefined> {
  if (kind === 'members') {
    // A member of the user's album: the housemate the contract's example names.
    const albumId = (known.albums ??= await resourceOf(stack, user, 'albums', known));
    const res = await callAs(stack, user, 'post', `/v1/albums/${albumId}/members`, {
      username: HOUSEMATE,
      role: 'viewer',
    });
    if (isNotImplemented(res)) return undefined;
    if (res.status !== 201)
      throw new Error(`addAlbumMember: expected 201, got ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { userId: string }).userId;
  }
  const from = ID_FROM[kind];
  if (from) {
    const ownerId = (known[from.kind] ??= await resourceOf(stack, user, from.kind, known));
    const get = listOperations().find(
      (o) => o.method === 'get' && o.security === 'bearer' && o.path.endsWith(`/${from.kind}/{id}`),
    );
    if (!ownerId || !get) return undefined;
    const res = await callAs(stack, user, 'get', urlFor(get, ownerId));
    const id = (res.body as Record<string, unknown> | undefined)?.[from.field];
    if (typeof id !== 'string')
      throw new Error(
        `${get.operationId} answered no ${from.field} for the test user's ${from.kind}: ${res.status} ${JSON.stringify(res.body)}`,
      );
    return id;
  }
  const create = createCallOf(kind);
  if (create) {
    const res = await callAs(
      stack,
      user,
      'post',
      create.path,
      validBody(create, (k) => known[k] ?? ''),
    );
    if (isNotImplemented(res)) return undefined;
    if (res.status !== 201)
      throw new Error(`${create.operationId}: expected 201, got ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  }
  const list = listCallOf(kind);
  if (!list)
    throw new Error(
      `no call creates or lists ${kind}: teach e2e/security/libraries.ts where a user's ${kind} come from`,
    );
  const listed = async (): Promise<Array<{ id: string }> | undefined> => {
    const res = await callAs(stack, user, 'get', list.path);
    if (isNotImplemented(res)) return undefined;
    if (res.status !== 200 || !Array.isArray(res.body))
      throw new Error(`${list.operationId}: expected 200 [..], got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Array<{ id: string }>;
  };
  if (!(await listed())) return undefined;
  const photo = PHOTO_FOR[kind];
  if (photo) {
    const item = await uploadReady(user.api, await photo.data(), photo.filename);
    if (photo.isTheItem) {
      // In the album too, so that it also stands for the album's items (a cover chosen among them).
      if (known.albums)
        await ok(
          user.api.POST('/v1/albums/{id}/mediaItems', {
            params: { path: { id: known.albums } },
            body: { mediaItems: [item.id] },
          }),
        );
      known.mediaItems = item.id;
    }
  }
  const found = await waitFor(async () => (await listed())?.[0], {
    timeoutMs: DERIVED_WITHIN_MS,
    intervalMs: 250,
    what: `a ${kind} resource of the test user`,
  }).catch(() => {
    throw new Error(
      `${list.operationId} is served, but the test user got no ${kind}: give PHOTO_FOR in e2e/security/libraries.ts a photo that makes one`,
    );
  });
  return found.id;
}

/** A photo with a GPS position (Amsterdam), different every time. */
function photoWithPosition(): Promise<Buffer> {
  return jpegWithExif(noiseImage(64, 48), {
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '52/1 22/1 1272/100',
      GPSLongitudeRef: 'E',
      GPSLongitude: '4/1 53/1 4272/100',
    },
  });
}

/**
 * A new user with a processed photo (with a GPS position) and an album holding it, and one
 * resource of each of `kinds` (places, jobs, …) where the service serving it exists.
 */
export async function libraryOf(stack: Stack, secrets: SecretLedger, kinds: string[] = []): Promise<Library> {
  await housemate(stack, secrets);
  const user = await securityUser(stack, secrets);
  const filename = `${uniqueName('photo')}.jpg`;
  const item = await uploadReady(user.api, await photoWithPosition(), filename);
  const album = await ok(
    user.api.POST('/v1/albums', { body: { name: uniqueName('album'), coverMediaItemId: item.id } }),
    201,
  );
  const ids: Record<string, string | undefined> = { mediaItems: item.id, albums: album.id };
  for (const kind of kinds) if (!(kind in ids)) ids[kind] = await resourceOf(stack, user, kind, ids);
  if (ids.jobs) await jobFinished(user, ids.jobs);
  const knownIds = Object.values(ids).filter((id): id is string => !!id);
  return { user, ids, knownIds, markers: [...knownIds, filename, album.name, user.username] };
}

/** The user name `AlbumMemberRequest`'s example names: an album's member in every library (and the matrix's valid body). */
const HOUSEMATE = 'bob';

/** Makes the housemate once per stack (a second attempt meets 409: already there). */
async function housemate(stack: Stack, secrets: SecretLedger): Promise<void> {
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const { response } = await adminApi(stack).POST('/v1/users', {
    body: { name: 'Bob Housemate', username: HOUSEMATE, password },
  });
  if (response.status === 201) secrets.password(HOUSEMATE, password);
  else if (response.status !== 409) throw new Error(`the housemate: POST /v1/users answered ${response.status}`);
}

/** A job changes by itself until it is final: the owner's views compare what the attacks change, so wait for that. */
async function jobFinished(user: TestUser, id: string): Promise<void> {
  await waitFor(
    async () => {
      const { data } = await user.api.GET('/v1/jobs/{id}', { params: { path: { id } } });
      return data && (data.status === 'COMPLETED' || data.status === 'STOPPED') ? true : undefined;
    },
    { timeoutMs: DERIVED_WITHIN_MS, intervalMs: 250, what: `job ${id} to finish` },
  );
}

/** Signed URLs differ by their expiry bucket and session, not by what they point at: left out of comparisons. */
function withoutSignatures(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value ?? null).replace(/\?exp=\d+(&sid=[0-9a-f-]+&uid=[0-9a-f-]+)?&sig=[A-Za-z0-9_-]+/g, ''),
  );
}

/**
 * Everything the user can read: the answer (status and body; content as a hash of its bytes) of
 * every GET bearer call of the contract, on the user's own resource where the path names one.
 * Two views are equal when nothing the user owns has changed.
 */
export async function viewOf(stack: Stack, library: Library): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  for (const op of listOperations().filter(
    (o) => o.method === 'get' && (o.security === 'bearer' || o.security === 'bearerOrSigned'),
  )) {
    const kind = kindOfPath(op.path);
    const id = kind ? library.ids[kind] : undefined;
    if (kind && !id) continue; // a kind not served yet: nothing of the user's there
    const url = urlFor(op, id, (k) => library.ids[k]);
    const res = await callAs(stack, library.user, 'get', url);
    const body =
      res.body !== undefined
        ? withoutSignatures(res.body)
        : `sha256:${createHash('sha256').update(res.bytes).digest('hex')}`;
    view[`${op.operationId} ${url}`] = { status: res.status, body };
  }
  return view;
}
