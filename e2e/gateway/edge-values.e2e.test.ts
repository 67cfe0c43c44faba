/**
 * Every call of openapi.yaml with each field and parameter at the edges of what the contract accepts (see
 * edge-requests.ts), against the whole stack, as an independent client might send them: a user with a processed photo
 * in an album shared with a housemate, an API key and a job, the administrator on another user. Each answer must be
 * the contract's — the gateway checks every answer against openapi.yaml here (TROVE_VALIDATE_RESPONSES), so an
 * answer breaking it is a 500 — and never a 5xx; a 4xx says why in `{"message"}`; a value at the contract's maxLength
 * or maxItems is not refused for that limit; no call ends the user's session but logout, and the stack answers ready
 * at the end.
 */
import { randomUUID } from 'node:crypto';
import { listOperations } from '@trove/openapi';
import type { OpenApiOperation } from '@trove/openapi';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegWithExif, noiseImage } from '@trove/kit/testing/media';
import { authorization, newUser, ok, uploadReady } from '../support/api';
import type { Credentials, TestUser } from '../support/api';
import { send } from '../support/raw';
import { kindOfPath, referencedKind } from '../security/contract';
import { inAttackOrder } from '../security/matrix';
import { edgeRequests } from './edge-requests';

/** A photo with a GPS position (Amsterdam) and a date, so that its item has a place and a month. */
function photo(): Promise<Buffer> {
  return jpegWithExif(noiseImage(64, 48), {
    IFD2: { DateTimeOriginal: '2019:06:24 10:30:00' },
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '52/1 22/1 1272/100',
      GPSLongitudeRef: 'E',
      GPSLongitude: '4/1 53/1 4272/100',
    },
  });
}

/** The housemate the contract's member example names. */
const HOUSEMATE = 'bob';

describe('edge values of every call (e2e)', () => {
  let stack: Stack;
  let user: TestUser;
  /** The user's own resource per kind: the ids the edge requests name. */
  const own: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'library', 'explore', 'jobs', 'worker', 'gateway'] });
    // The housemate the contract's member example names, and a user for the administrator's calls.
    own.members = (await newUser(stack, { username: HOUSEMATE })).id;
    own.users = (await newUser(stack)).id;
    user = await newUser(stack);
    await restoreLibrary();
    own.jobs = (await ok(user.api.POST('/v1/jobs', { body: { components: 'metadata' } }), 201)).id;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  /**
   * Gives the user back what the previous call's edge requests took (a trashed or hidden photo, a deleted album or API
   * key), so that every call meets a photo in an album shared with the housemate, and an API key.
   */
  async function restoreLibrary(): Promise<void> {
    const api = user.api;
    const item =
      own.mediaItems && (await api.GET('/v1/mediaItems/{id}', { params: { path: { id: own.mediaItems } } })).data;
    if (!item) own.mediaItems = (await uploadReady(api, await photo(), `edge-${randomUUID()}.jpg`)).id;
    else {
      if (item.deleted) await ok(api.DELETE('/v1/trash', { body: { mediaItems: [item.id] } }), 204);
      if (item.hidden) await ok(api.DELETE('/v1/hidden', { body: { mediaItems: [item.id] } }), 204);
    }
    const albumId = own.albums;
    if (!albumId || !(await api.GET('/v1/albums/{id}', { params: { path: { id: albumId } } })).data)
      own.albums = (await ok(api.POST('/v1/albums', { body: { name: 'Edges' } }), 201)).id;
    const album = { params: { path: { id: own.albums! } } };
    await ok(api.POST('/v1/albums/{id}/mediaItems', { ...album, body: { mediaItems: [own.mediaItems!] } }), 204);
    const members = await ok(api.GET('/v1/albums/{id}/members', album), 200);
    if (!members.some((m) => m.userId === own.members))
      await ok(api.POST('/v1/albums/{id}/members', { ...album, body: { username: HOUSEMATE, role: 'viewer' } }), 201);
    const keys = await ok(api.GET('/v1/apiKeys'), 200);
    if (!keys.some((k) => k.id === own.apiKeys))
      own.apiKeys = (await ok(api.POST('/v1/apiKeys', { body: { name: 'edges' } }), 201)).id;
  }

  /** The user's id of a kind named by a field, a parameter or a path; an unknown one where the user has none. */
  const idFor = (op: OpenApiOperation) => (name: string) =>
    own[name] ??
    own[referencedKind(name) ?? ''] ??
    (name === 'id' ? own[kindOfPath(op.path) ?? ''] : undefined) ??
    randomUUID();

  /** Sends every edge request of the calls with the credentials (none: anonymous); answers what broke the rules. */
  async function walk(calls: OpenApiOperation[], credentials?: Credentials): Promise<string[]> {
    const failures: string[] = [];
    for (const op of calls) {
      for (const req of edgeRequests(op, idFor(op))) {
        const name = `${op.operationId} ${op.method.toUpperCase()} ${req.url.slice(0, 120)} with ${req.what}`;
        const res = await send(stack.gatewayUrl + req.url, {
          method: op.method,
          json: req.body,
          headers: credentials ? authorization(credentials) : {},
        }).catch((err: unknown) => ({ status: 0, body: String(err) }));
        const said = `${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
        const message = (res.body as { message?: unknown } | undefined)?.message;
        if (res.status === 0 || res.status >= 500) failures.push(`${name}: ${said}`);
        else if (res.status >= 400 && typeof message !== 'string')
          failures.push(`${name}: a ${res.status} without {"message"}: ${said}`);
        // A value at the contract's own limit refused for that limit: the service counts otherwise (UTF-16 units).
        else if (res.status === 400 && req.bound !== undefined && String(message).includes(String(req.bound)))
          failures.push(`${name}: refused at the contract's own limit (${req.bound}): ${said}`);
      }
      if (credentials && 'bearer' in credentials) await restoreLibrary();
      if (
        op.operationId !== 'logout' &&
        (await send(`${stack.gatewayUrl}/v1/account`, { headers: authorization({ bearer: user.token }) })).status !==
          200
      )
        failures.push(`${op.operationId}: the user's session no longer works after its edge requests`);
    }
    return failures;
  }

  it("a user's calls answer every edge value as the contract says, never 5xx", async () => {
    const calls = inAttackOrder(
      listOperations().filter((o) => o.security === 'bearer' || o.security === 'bearerOrSigned'),
    );
    expect(calls.length).toBeGreaterThan(50);
    expect(await walk(calls, { bearer: user.token })).toEqual([]);
  }, 600_000);

  it("the administrator's and the public calls answer every edge value as the contract says, never 5xx", async () => {
    const admin = { basic: { username: stack.adminUsername, password: stack.adminPassword } };
    const adminCalls = inAttackOrder(listOperations().filter((o) => o.security === 'basic'));
    const publicCalls = listOperations().filter((o) => o.security === 'none');
    expect(adminCalls.length).toBeGreaterThan(3);
    expect(await walk(adminCalls, admin)).toEqual([]);
    expect(await walk(publicCalls)).toEqual([]);
    expect((await send(`${stack.gatewayUrl}/health/ready`)).status).toBe(200);
  }, 600_000);
});
