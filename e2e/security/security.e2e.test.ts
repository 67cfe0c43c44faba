/**
 * Hardening, end to end: a real nats-server and the compiled auth, media, library, explore, jobs,
 * worker and gateway processes, attacked as a client would. Who may call what is walked from openapi.yaml
 * (a call added there is attacked at once); tokens are forged and tampered with; bodies are too
 * big, malformed or of the wrong type; filenames try to escape; and at the end no process may
 * have printed a secret the suite handled. Every test makes its own users.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { listOperations } from '@trove/openapi';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, noiseImage, noisePng } from '@trove/kit/testing/media';
import { adminApi, authorization, createApi, getItem, login, ok, upload } from '../support/api';
import type { MediaItem, TestUser } from '../support/api';
import { filesUnder } from '../support/data-dir';
import { multipart } from '../support/multipart';
import { send } from '../support/raw';
import type { RawAnswer, RawRequest } from '../support/raw';
import { SecretLedger, expectNoSecretsInLogs, stackSecrets } from '../support/secrets';
import {
  bearerCalls,
  idFieldsOfBody,
  otherPathParameters,
  referencedKind,
  resourceCalls,
  takesJson,
  urlFor,
  validBody,
  wrongTypesBody,
} from './contract';
import { decodeJwt, signJwt, strangersKey, withSignature } from './forged-tokens';
import { callAs, libraryOf, securityUser, viewOf } from './libraries';
import { inAttackOrder, judge } from './matrix';

const UNAUTHORIZED = { message: 'Unauthorized' };
const JSON_BODY_LIMIT_BYTES = 16 * 1024;
/**
 * The calls that are public by design; any other call must demand credentials. A new public call is reviewed here first.
 * getSetupStatus: only `{needsSetup}` (whether any account exists), for the first-run page; creating the account
 * still takes the administrator's credentials.
 * unlockSharedAlbum, downloadSharedAlbum: a shared link's password and ZIP, answering only what the link
 * itself answers (404 unless shared and not expired, 401 without the link's token when it has a password).
 */
const PUBLIC_BY_DESIGN = [
  'getVersion',
  'getDisk',
  'getLiveness',
  'getReadiness',
  'getSetupStatus',
  'getSharedAlbum',
  'listSharedAlbumMediaItems',
  'unlockSharedAlbum',
  'downloadSharedAlbum',
  'login',
  'refresh',
  'logout',
];

describeWithFixtures('security (e2e)', () => {
  let stack: Stack;
  const secrets = new SecretLedger();
  const urlSigningSecret = randomBytes(32).toString('base64url');
  const resources = resourceCalls();
  const kinds = [...new Set(resources.map((c) => c.kind))];
  /** A request chosen at run time, as `as` (a user's token, or any credentials). */
  const call = (method: string, url: string, req: RawRequest & { as?: TestUser } = {}) =>
    send(stack.gatewayUrl + url, {
      ...req,
      method,
      headers: { ...(req.as ? { Authorization: `Bearer ${req.as.token}` } : {}), ...req.headers },
    });
  const adminCredentials = () => ({ basic: { username: stack.adminUsername, password: stack.adminPassword } });
  const expectUnauthorized = (what: string, res: RawAnswer) =>
    expect({ what, status: res.status, body: res.body }).toEqual({ what, status: 401, body: UNAUTHORIZED });

  beforeAll(async () => {
    stack = await startStack({
      // explore and jobs too: their calls are attacked as soon as their services serve them.
      services: ['auth', 'media', 'library', 'explore', 'jobs', 'worker', 'gateway'],
      env: {
        TROVE_JSON_BODY_LIMIT: `${JSON_BODY_LIMIT_BYTES / 1024}kb`,
        TROVE_URL_SIGNING_SECRET: urlSigningSecret,
        // As in production: the answer check would turn the 404 of a declared call not served yet
        // (explore, jobs) into a 500, and what is attacked here is the production behaviour.
        TROVE_VALIDATE_RESPONSES: 'false',
        // The test nats-server asks for no credentials; the services are given some all the same, so the log check has a NATS password to look for.
        TROVE_NATS_USER: 'trove',
        TROVE_NATS_PASSWORD: randomBytes(18).toString('base64url'),
      },
    });
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  });

  describe('who may call what, walking openapi.yaml', () => {
    it('every call needs credentials except the reviewed public ones; every {id} names a kind of resource', () => {
      const publicCalls = listOperations()
        .filter((o) => o.security === 'none')
        .map((o) => o.operationId);
      expect(publicCalls.sort()).toEqual([...PUBLIC_BY_DESIGN].sort());
      expect(bearerCalls().length).toBeGreaterThan(40);
      expect(kinds).toEqual(expect.arrayContaining(['mediaItems', 'albums']));
      // A path parameter that is not a resource id is not attacked by the matrix: a new one is reviewed here first.
      expect(otherPathParameters()).toEqual(['monthDate']);
    });

    it('every bearer call answers 401 {"message"} without a token (HEAD too), and with the admin credentials instead of one', async () => {
      const failures: string[] = [];
      for (const op of bearerCalls()) {
        const url = urlFor(op, randomUUID());
        for (const [what, headers] of [
          ['no token', {}],
          ['admin basic auth', authorization(adminCredentials())],
        ] as const) {
          const res = await call(op.method, url, { headers, json: takesJson(op) ? {} : undefined });
          const challenge = res.headers.get('www-authenticate') ?? '';
          if (
            res.status !== 401 ||
            JSON.stringify(res.body) !== JSON.stringify(UNAUTHORIZED) ||
            !challenge.startsWith('Bearer')
          ) {
            failures.push(
              `${op.operationId} ${op.method.toUpperCase()} ${url} with ${what}: ${res.status} ${JSON.stringify(res.body)}`,
            );
          }
        }
        // Express answers HEAD with the GET route: it must not be a way around the check.
        if (op.method === 'get') {
          const head = await call('head', url);
          if (head.status !== 401) failures.push(`${op.operationId} HEAD ${url} with no token: ${head.status}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('every admin call answers 401 to a user’s valid bearer token', async () => {
      const user = await securityUser(stack, secrets);
      const failures: string[] = [];
      for (const op of listOperations().filter((o) => o.security === 'basic')) {
        const res = await call(op.method, urlFor(op, user.id), {
          as: user,
          json: takesJson(op) ? validBody(op, () => randomUUID()) : undefined,
        });
        if (res.status !== 401 || JSON.stringify(res.body) !== JSON.stringify(UNAUTHORIZED))
          failures.push(`${op.operationId}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(failures).toEqual([]);
      // The user's own account is untouched, and the token still works where it belongs.
      expect(
        (await ok(adminApi(stack).GET('/v1/users/{id}', { params: { path: { id: user.id } } }), 200)).username,
      ).toBe(user.username);
      expect((await call('get', '/v1/features', { as: user })).status).toBe(200);
    });

    it.each(kinds)(
      '%s: another user’s call answers 404 exactly as for a missing id, never 2xx, and the owner’s view is unchanged',
      async (kind) => {
        const [owner, other] = await Promise.all([
          libraryOf(stack, secrets, [kind]),
          libraryOf(stack, secrets, [kind]),
        ]);
        const before = await viewOf(stack, owner);
        const failures: string[] = [];
        const notImplemented: string[] = [];
        for (const op of inAttackOrder(resources.filter((c) => c.kind === kind))) {
          const name = `${op.operationId} ${op.method.toUpperCase()} ${op.path}`;
          const missing = randomUUID();
          const ownersId = owner.ids[kind] ?? randomUUID();
          // Body ids (album items, a cover) are the owner's too: the worst case for the owner.
          const attack = await callAs(
            stack,
            other.user,
            op.method,
            urlFor(op, ownersId, (k) => owner.ids[k]),
            validBody(op, (k) => owner.ids[k] ?? missing),
          );
          const probe = await callAs(
            stack,
            other.user,
            op.method,
            urlFor(op, missing),
            validBody(op, (k) => owner.ids[k] ?? missing),
          );
          const control = await callAs(
            stack,
            other.user,
            op.method,
            urlFor(op, other.ids[kind] ?? missing, (k) => other.ids[k]),
            validBody(op, (k) => other.ids[k] ?? missing),
          );
          const verdict = judge({
            call: name,
            attack,
            probe,
            control,
            ownersIds: [ownersId, ...owner.knownIds],
            missingIds: [missing],
            ownersMarkers: owner.markers,
          });
          if (!verdict.ok) failures.push(verdict.why);
          else if (!verdict.implemented) notImplemented.push(name);
        }
        expect(failures).toEqual([]);
        expect(await viewOf(stack, owner)).toEqual(before);
        // Honest about what was attacked for real: a kind the owner has is served by some call; one
        // the owner cannot have yet (its service has not landed) is served by none.
        const all = resources.filter((c) => c.kind === kind).length;
        if (owner.ids[kind]) expect(notImplemented.length).toBeLessThan(all);
        else expect(notImplemented.length).toBe(all);
      },
      120_000,
    ); // a thing takes the seed HEIC through the worker's recognition, a person the group photo through its faces, for both users

    it('naming another user’s resources in a request body answers 404 exactly as a missing id, and changes nothing of theirs', async () => {
      const calls = bearerCalls().filter((op) => idFieldsOfBody(op).length > 0);
      // Each user has a resource of every kind these calls name, in their path or their body (a person to merge).
      const named = calls.flatMap((op) => [
        resources.find((r) => r.operationId === op.operationId)?.kind,
        ...idFieldsOfBody(op).map(referencedKind),
      ]);
      const kindsNamed = [...new Set(named.filter((k): k is string => k !== undefined))];
      const [owner, other] = await Promise.all([
        libraryOf(stack, secrets, kindsNamed),
        libraryOf(stack, secrets, kindsNamed),
      ]);
      const before = await viewOf(stack, owner);
      expect(calls.map((c) => c.operationId)).toEqual(
        expect.arrayContaining(['addFavourites', 'trashMediaItems', 'createAlbum', 'addAlbumMediaItems']),
      );
      const failures: string[] = [];
      for (const op of calls) {
        const name = `${op.operationId} ${op.method.toUpperCase()} ${op.path} with ${idFieldsOfBody(op).join(', ')}`;
        // The path (if it names a resource) is the caller's own: only the body reaches for the owner's.
        const pathKind = resources.find((r) => r.operationId === op.operationId)?.kind;
        const url = urlFor(op, pathKind ? other.ids[pathKind] : undefined, (k) => other.ids[k]);
        const missing = randomUUID();
        const attack = await callAs(
          stack,
          other.user,
          op.method,
          url,
          validBody(op, (k) => owner.ids[k] ?? missing),
        );
        const probe = await callAs(
          stack,
          other.user,
          op.method,
          url,
          validBody(op, () => missing),
        );
        const control = await callAs(
          stack,
          other.user,
          op.method,
          url,
          validBody(op, (k) => other.ids[k] ?? missing),
        );
        const verdict = judge({
          call: name,
          attack,
          probe,
          control,
          ownersIds: owner.knownIds,
          missingIds: [missing],
          ownersMarkers: owner.markers,
        });
        if (!verdict.ok) failures.push(verdict.why);
      }
      expect(failures).toEqual([]);
      expect(await viewOf(stack, owner)).toEqual(before);
    }, 120_000); // a person takes the seed group photo through the worker's faces, for both users
  });

  describe('signed content URLs', () => {
    /**
     * A content URL signed here with the stack's key for a session (`sid=…&uid=…`), the way the gateway signs:
     * one with a future expiry opens the content, so an expired one is refused for its expiry alone.
     */
    const signed = (path: string, exp: number, claim: string) =>
      `${path}?exp=${exp}&${claim}&sig=${createHmac('sha256', urlSigningSecret).update(`${path}\n${exp}\n${claim}`).digest('base64url')}`;
    const withoutOrigin = (url: string) => url.replace(stack.gatewayUrl, '');

    it('a tampered, expired, re-targeted or incomplete signature answers 401 {"message"}; a signature opens only content calls', async () => {
      const [owner, other] = await Promise.all([libraryOf(stack, secrets), libraryOf(stack, secrets)]);
      const item = await getItem(owner.user.api, owner.ids.mediaItems!);
      const otherItem = await getItem(other.user.api, other.ids.mediaItems!);
      const thumbnail = withoutOrigin(item.thumbnailUrl);
      const { pathname, searchParams } = new URL(item.thumbnailUrl);
      const exp = Number(searchParams.get('exp'));
      const sig = searchParams.get('sig')!;
      const sid = searchParams.get('sid')!;
      const claim = `sid=${sid}&uid=${searchParams.get('uid')}`;
      expect(searchParams.get('uid')).toBe(owner.user.id);
      // A signature opens the item's bytes for hours: no log may keep one.
      secrets.add('a content-URL signature', sig);
      const now = Math.floor(Date.now() / 1000);

      // The URLs as handed out, and one signed here for later: both open the content without a token.
      expect((await call('get', thumbnail)).status).toBe(200);
      expect((await call('get', signed(pathname, now + 600, claim))).status).toBe(200);

      const flipped = sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
      const refused: Array<[string, string]> = [
        ['a changed signature', `${pathname}?exp=${exp}&${claim}&sig=${flipped}`],
        ['a later expiry with the old signature', `${pathname}?exp=${exp + 3600}&${claim}&sig=${sig}`],
        ['an expired signature', signed(pathname, now - 5, claim)],
        [
          'the thumbnail’s signature on the original',
          `${pathname.replace(/thumbnail$/, 'original')}?exp=${exp}&${claim}&sig=${sig}`,
        ],
        [
          'one item’s signature on another user’s item',
          `${pathname.replace(item.id, otherItem.id)}?exp=${exp}&${claim}&sig=${sig}`,
        ],
        ['a signature without its expiry', `${pathname}?${claim}&sig=${sig}`],
        ['an expiry without its signature', `${pathname}?exp=${exp}&${claim}`],
        ['a signature without its session', `${pathname}?exp=${exp}&sig=${sig}`],
        [
          'a signature with another session',
          `${pathname}?exp=${exp}&sid=${randomUUID()}&uid=${owner.user.id}&sig=${sig}`,
        ],
        ['a signature with another user', `${pathname}?exp=${exp}&sid=${sid}&uid=${other.user.id}&sig=${sig}`],
        ['a session signature as a shared album’s', `${pathname}?exp=${exp}&share=${sid}&sig=${sig}`],
        [
          'a URL as signed before sessions were bound (path and expiry only)',
          `${pathname}?exp=${now + 600}&sig=${createHmac('sha256', urlSigningSecret)
            .update(`${pathname}\n${now + 600}`)
            .digest('base64url')}`,
        ],
        [
          'a signature signed with another key',
          `${pathname}?exp=${exp}&${claim}&sig=${createHmac('sha256', strangersKey()).update(`${pathname}\n${exp}\n${claim}`).digest('base64url')}`,
        ],
        ['a signed URL of a call that is not a content call', signed(`/v1/mediaItems/${item.id}`, now + 600, claim)],
        ['a signed URL of an album', signed(`/v1/albums/${owner.ids.albums}`, now + 600, claim)],
      ];
      for (const [what, url] of refused) expectUnauthorized(what, await call('get', url));
      // A bad token next to a good signature is still a bad token.
      expectUnauthorized(
        'a forged token with a valid signature',
        await call('get', thumbnail, {
          headers: { Authorization: `Bearer ${signJwt({ alg: 'HS256' }, {}, strangersKey())}` },
        }),
      );
    });

    it('a private album is not reachable through the public sharing calls, nor are items outside a shared album', async () => {
      const owner = await libraryOf(stack, secrets);
      const other = await securityUser(stack, secrets);
      const albumId = owner.ids.albums!;
      const outside = await ok(upload(owner.user.api, await noisePng(), 'not-in-the-album.png'), 201);
      for (const id of [albumId, owner.ids.mediaItems!, outside.id]) {
        for (const path of [`/v1/sharing/${id}`, `/v1/sharing/${id}/mediaItems`, `/v1/sharing/${id}/download`]) {
          for (const as of [undefined, other, owner.user]) {
            const res = await call('get', path, { as });
            expect({
              path,
              status: res.status,
              leaks: owner.markers.filter((m) => m !== id && res.bytes.toString().includes(m)),
            }).toEqual({ path, status: 404, leaks: [] });
          }
        }
      }
      expect(
        (await owner.user.api.PUT('/v1/albums/{id}', { params: { path: { id: albumId } }, body: { shared: true } }))
          .response.status,
      ).toBe(204);
      const listed = (await call('get', `/v1/sharing/${albumId}/mediaItems`)).body as MediaItem[];
      expect(listed.map((i) => i.id)).toEqual([owner.ids.mediaItems]);
      expect((await call('get', `/v1/sharing/${outside.id}`)).status).toBe(404);
    });
  });

  describe('tampered tokens', () => {
    it('alg none, another key, another algorithm, expired, no expiry, another issuer, an edited payload, garbage: all 401', async () => {
      const [alice, bob] = await Promise.all([securityUser(stack, secrets), securityUser(stack, secrets)]);
      const { header, payload, signature } = decodeJwt(alice.token);
      const now = Math.floor(Date.now() / 1000);
      const { exp: _exp, ...withoutExpiry } = payload;
      const forged: Array<[string, string]> = [
        ['alg none, no signature', withSignature({ ...header, alg: 'none' }, payload, '')],
        ['alg none, the real signature', withSignature({ ...header, alg: 'none' }, payload, signature)],
        ['signed with another key', signJwt(header, payload, strangersKey())],
        ['signed with the right key as HS512', signJwt({ ...header, alg: 'HS512' }, payload, stack.jwtSecret, 512)],
        [
          'expired, signed with the right key',
          signJwt(header, { ...payload, iat: now - 120, exp: now - 60 }, stack.jwtSecret),
        ],
        ['without expiry, signed with the right key', signJwt(header, withoutExpiry, stack.jwtSecret)],
        [
          'another issuer, signed with the right key',
          signJwt(header, { ...payload, iss: 'someone-else' }, stack.jwtSecret),
        ],
        ['sub changed to another user, old signature', withSignature(header, { ...payload, sub: bob.id }, signature)],
        [
          'exp pushed later, old signature',
          withSignature(header, { ...payload, exp: Number(payload.exp) + 86_400 }, signature),
        ],
        ['garbage', 'garbage'],
        ['three garbage parts', 'a.b.c'],
        ['the refresh token', alice.refreshToken],
        ['10 KB of token', `${alice.token}${'A'.repeat(10_240)}`],
      ];
      const calls = [
        (token: string) => call('get', '/v1/mediaItems', { headers: { Authorization: `Bearer ${token}` } }),
        (token: string) =>
          call('post', '/v1/albums', { headers: { Authorization: `Bearer ${token}` }, json: { name: 'forged' } }),
      ];
      for (const [what, token] of forged) for (const attempt of calls) expectUnauthorized(what, await attempt(token));
      // The token in the query instead of the header is no token.
      expectUnauthorized('a token in the query', await call('get', `/v1/mediaItems?access_token=${alice.token}`));
      // The genuine token works, and nothing was created by the forged ones.
      expect(await ok(alice.api.GET('/v1/albums'), 200)).toEqual([]);
      expect(await ok(bob.api.GET('/v1/albums'), 200)).toEqual([]);
    });

    it('after logout the session’s access and refresh tokens answer 401; another session of the user still works', async () => {
      const user = await securityUser(stack, secrets);
      const second = await ok(login(stack.gatewayUrl, user.username, user.password), 200);
      secrets.tokens(user.username, second);
      expect((await call('post', '/v1/auth/logout', { as: user })).status).toBe(204);
      expectUnauthorized('access token after logout', await call('get', '/v1/mediaItems', { as: user }));
      expectUnauthorized(
        'refresh token after logout',
        await call('post', '/v1/auth/refresh', { json: { refreshToken: user.refreshToken } }),
      );
      expectUnauthorized('logout again', await call('post', '/v1/auth/logout', { as: user }));
      expect(
        (await call('get', '/v1/mediaItems', { headers: { Authorization: `Bearer ${second.accessToken}` } })).status,
      ).toBe(200);
    });

    it('after the user is deleted every token of theirs answers 401, and a new token signed for them too', async () => {
      const user = await securityUser(stack, secrets);
      expect((await call('get', '/v1/mediaItems', { as: user })).status).toBe(200);
      expect(
        (await adminApi(stack).DELETE('/v1/users/{id}', { params: { path: { id: user.id } } })).response.status,
      ).toBe(204);
      expectUnauthorized('access token of a deleted user', await call('get', '/v1/mediaItems', { as: user }));
      expectUnauthorized(
        'refresh token of a deleted user',
        await call('post', '/v1/auth/refresh', { json: { refreshToken: user.refreshToken } }),
      );
      // Even a fresh token for the deleted user, signed with the real key (a stolen key aside, a token minted before deletion).
      const { header, payload } = decodeJwt(user.token);
      const now = Math.floor(Date.now() / 1000);
      expectUnauthorized(
        'a new token for a deleted user',
        await call('get', '/v1/mediaItems', {
          headers: {
            Authorization: `Bearer ${signJwt(header, { ...payload, sid: randomUUID(), iat: now, exp: now + 600 }, stack.jwtSecret)}`,
          },
        }),
      );
      expect((await login(stack.gatewayUrl, user.username, user.password)).response.status).toBe(401);
    });
  });

  describe('oversized and malformed bodies', () => {
    /** The credentials a call needs, so each answer is about the body, not the caller. */
    const credentialsFor = (security: string, user: TestUser) =>
      security === 'basic'
        ? authorization(adminCredentials())
        : security === 'none'
          ? {}
          : { Authorization: `Bearer ${user.token}` };

    it('on every JSON call: over the limit 413, not JSON 400, fields of the wrong type 400, all {"message"}; nothing is stored', async () => {
      const owner = await libraryOf(stack, secrets);
      const before = await viewOf(stack, owner);
      const usersBefore = await ok(adminApi(stack).GET('/v1/users', { params: { query: { limit: 100 } } }), 200);
      const failures: string[] = [];
      const expectAnswer = (what: string, res: RawAnswer, status: number) => {
        if (res.status !== status || typeof (res.body as { message?: unknown } | undefined)?.message !== 'string')
          failures.push(`${what}: expected ${status} {"message"}, got ${res.status} ${JSON.stringify(res.body)}`);
      };
      for (const op of listOperations().filter(takesJson)) {
        const kind = resources.find((r) => r.operationId === op.operationId)?.kind;
        const url = urlFor(
          op,
          kind ? owner.ids[kind] : op.security === 'basic' ? owner.user.id : undefined,
          (k) => owner.ids[k],
        );
        const headers = credentialsFor(op.security, owner.user);
        const name = `${op.operationId} ${op.method.toUpperCase()} ${op.path}`;
        const oversized = {
          ...validBody(op, (k) => owner.ids[k] ?? randomUUID()),
          padding: 'x'.repeat(JSON_BODY_LIMIT_BYTES + 1),
        };
        expectAnswer(
          `${name}, ${JSON_BODY_LIMIT_BYTES + 1}+ bytes`,
          await call(op.method, url, { headers, json: oversized }),
          413,
        );
        expectAnswer(`${name}, not JSON`, await call(op.method, url, { headers, raw: '{"name": "half an obj' }), 400);
        expectAnswer(`${name}, wrong types`, await call(op.method, url, { headers, json: wrongTypesBody(op) }), 400);
        expectAnswer(
          `${name}, an array`,
          await call(op.method, url, { headers, json: [validBody(op, (k) => owner.ids[k] ?? randomUUID())] }),
          400,
        );
      }
      // Deeply nested JSON within the limit: refused, and the gateway keeps answering.
      expectAnswer(
        'deeply nested JSON',
        await call('post', '/v1/albums', {
          headers: credentialsFor('bearer', owner.user),
          raw: `${'['.repeat(5000)}${']'.repeat(5000)}`,
        }),
        400,
      );
      // Without credentials nothing else is looked at: 401 before the size.
      expectUnauthorized(
        'an oversized body without a token',
        await call('post', '/v1/albums', { json: { name: 'x'.repeat(JSON_BODY_LIMIT_BYTES * 2) } }),
      );
      expect(failures).toEqual([]);
      expect(await viewOf(stack, owner)).toEqual(before);
      expect(await ok(adminApi(stack).GET('/v1/users', { params: { query: { limit: 100 } } }), 200)).toEqual(
        usersBefore,
      );
    });

    it('uploads without a file part, with two, or with a file that is not a photo or video: 400 {"message"}, nothing stored', async () => {
      const user = await securityUser(stack, secrets);
      const jpeg = () => noiseImage(32, 32).jpeg().toBuffer();
      const bodies: Array<[string, ReturnType<typeof multipart>]> = [
        ['no file part', multipart([{ name: 'note', data: Buffer.from('no file here') }])],
        ['a file part under another name', multipart([{ name: 'photo', filename: 'a.jpg', data: await jpeg() }])],
        [
          'two file parts',
          multipart([
            { name: 'file', filename: 'a.jpg', data: await jpeg() },
            { name: 'file', filename: 'b.jpg', data: await jpeg() },
          ]),
        ],
        [
          'a text file named .jpg',
          multipart([
            {
              name: 'file',
              filename: 'notes.jpg',
              data: Buffer.from('plain text, whatever the name says\n'.repeat(20)),
            },
          ]),
        ],
        [
          'an HTML file',
          multipart([
            {
              name: 'file',
              filename: 'x.html',
              contentType: 'image/jpeg',
              data: Buffer.from('<html><script>alert(1)</script></html>'),
            },
          ]),
        ],
        ['an empty file', multipart([{ name: 'file', filename: 'empty.jpg', data: Buffer.alloc(0) }])],
        [
          'a broken multipart body',
          {
            contentType: 'multipart/form-data; boundary=nope',
            body: Buffer.from(
              '--nope\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8',
            ),
          },
        ],
      ];
      for (const [what, { contentType, body }] of bodies) {
        const res = await call('post', '/v1/mediaItems', { as: user, raw: body, contentType });
        expect({
          what,
          status: res.status,
          message: typeof (res.body as { message?: unknown } | undefined)?.message,
        }).toEqual({ what, status: 400, message: 'string' });
      }
      expect(await ok(user.api.GET('/v1/mediaItems'), 200)).toEqual([]);
      await waitFor(
        async () =>
          (await filesUnder(stack.dataDir, 'blobs')).every((f) => !f.includes(user.id) && !f.startsWith('blobs/.tmp/')),
        { what: 'no blob of the refused uploads' },
      );
    });
  });

  describe('filenames', () => {
    const escapeMarker = `escape${randomBytes(4).toString('hex')}`;
    /** Sent raw in `filename="…"` (bytes as they are) or RFC 5987-encoded in `filename*=` (any code point, NUL and CR LF included). */
    const names: Array<{ what: string; name: string; encoded?: boolean }> = [
      { what: 'unix traversal', name: '../../etc/passwd' },
      { what: 'traversal to the data dir', name: `../../../../${escapeMarker}-data.jpg` },
      { what: 'traversal to the root', name: `${'../'.repeat(12)}${escapeMarker}-root.jpg` },
      { what: 'windows traversal', name: `..\\..\\${escapeMarker}-win.jpg` },
      { what: 'nested path', name: 'a/b/c.jpg' },
      { what: 'absolute path', name: `/tmp/${escapeMarker}-abs.jpg` },
      { what: 'NUL byte', name: 'photo.jpg\u0000.exe', encoded: true },
      { what: 'CR LF header injection', name: 'x.jpg"\r\nX-Injected: yes\r\nContent-Type: text/html', encoded: true },
      { what: 'quote and semicolon', name: 'a"; filename="evil.exe', encoded: true },
      { what: 'control characters', name: '\u0007bell\u001b[31mred\u007f\u0085.jpg', encoded: true },
      { what: 'right-to-left override', name: 'photo\u202Egpj.exe', encoded: true },
      { what: '10 KB name', name: `${'n'.repeat(10 * 1024)}.jpg` },
      { what: 'only dots', name: '..' },
      { what: 'an ordinary accented name (kept as it is)', name: 'Été à la plage.jpg', encoded: true },
    ];

    it('a path, control character or spoofing trick in a filename is refused or stored harmlessly; nothing is written outside the blob folder', async () => {
      const user = await securityUser(stack, secrets);
      const filesBefore = new Set(await filesUnder(stack.dataDir));
      const stored: MediaItem[] = [];
      for (const { what, name, encoded } of names) {
        const data = await noiseImage(24, 24).jpeg().toBuffer();
        // Declared as HTML: the type comes from the bytes, never from what the client says.
        const { contentType, body } = multipart([
          { name: 'file', filename: name, encodeFilename: encoded, contentType: 'text/html', data },
        ]);
        const res = await call('post', '/v1/mediaItems', { as: user, raw: body, contentType });
        expect({ what, status: [201, 400].includes(res.status) }).toEqual({ what, status: true });
        if (res.status !== 201) continue;
        const item = await getItem(user.api, (res.body as { id: string }).id);
        stored.push(item);
        expect({ what, problems: filenameProblems(item.filename) }).toEqual({ what, problems: [] });
        // The download carries the stored name, and nothing but a Content-Disposition.
        const original = await call('get', `/v1/mediaItems/${item.id}/original`, { as: user });
        expect(original.status).toBe(200);
        expect(original.bytes.equals(data)).toBe(true);
        const disposition = original.headers.get('content-disposition') ?? '';
        expect({ what, disposition: SAFE_DISPOSITION.test(disposition) }).toEqual({ what, disposition: true });
        expect(decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(disposition)![1]!)).toBe(item.filename);
        expect(original.headers.get('x-injected')).toBeNull();
        expect(original.headers.get('content-type')).toBe('image/jpeg');
      }
      expect(stored.find((i) => i.filename === 'Été à la plage.jpg')).toBeDefined();

      // Only blob files of this user's items (and the document store) are new in the data dir, and nothing escaped it.
      const added = (await filesUnder(stack.dataDir)).filter((f) => !filesBefore.has(f));
      const ownBlob = new RegExp(`^blobs/media/[0-9a-f-]{36}/[0-9a-f-]{36}/[a-z]+(\\.meta\\.json)?$`);
      expect(
        added.filter((f) => !ownBlob.test(f) && !f.startsWith('docstore/') && !f.startsWith('blobs/.tmp/')),
      ).toEqual([]);
      const escaped = [...(await filesUnder(tmpdir(), '', 4)), ...(await filesUnder('/', '', 0))].filter((f) =>
        f.includes(escapeMarker),
      );
      expect(escaped).toEqual([]);
    });
  });

  // Last: it looks at everything the suite's processes printed.
  describe('logs', () => {
    it('no process printed a secret: admin, NATS, signing keys, any password used or token issued', async () => {
      // A scenario of its own, so the check has fresh material even when run alone: a failed
      // login, a login, a refresh, a new password, a logout and a deletion.
      const user = await securityUser(stack, secrets);
      const wrong = `Wrong-${randomBytes(9).toString('base64url')}`;
      secrets.password(`${user.username} (a wrong one)`, wrong);
      expect((await login(stack.gatewayUrl, user.username, wrong)).response.status).toBe(401);
      const refreshed = await ok(
        createApi(stack.gatewayUrl).POST('/v1/auth/refresh', { body: { refreshToken: user.refreshToken } }),
        200,
      );
      secrets.tokens(user.username, refreshed);
      const newPassword = `New-${randomBytes(12).toString('base64url')}`;
      secrets.password(`${user.username} (changed)`, newPassword);
      expect(
        (
          await adminApi(stack).PUT('/v1/users/{id}', {
            params: { path: { id: user.id } },
            body: { password: newPassword },
          })
        ).response.status,
      ).toBe(204);
      const again = await ok(login(stack.gatewayUrl, user.username, newPassword), 200);
      secrets.tokens(user.username, again);
      expect(
        (await call('post', '/v1/auth/logout', { headers: { Authorization: `Bearer ${again.accessToken}` } })).status,
      ).toBe(204);
      expect(
        (await adminApi(stack).DELETE('/v1/users/{id}', { params: { path: { id: user.id } } })).response.status,
      ).toBe(204);

      // Every process ran with debug-worthy traffic above; each must be in the check.
      expect(Object.keys(stack.processes).sort()).toEqual([
        'auth',
        'explore',
        'gateway',
        'jobs',
        'library',
        'media',
        'worker',
      ]);
      expect(stackSecrets(stack).map((s) => s.what)).toEqual(
        expect.arrayContaining(['the admin password', 'the JWT secret', 'the URL-signing secret', 'the NATS password']),
      );
      expectNoSecretsInLogs(stack, [...stackSecrets(stack), ...secrets.list()]);
    });
  });
});

/** A Content-Disposition with nothing but a printable ASCII fallback name and an RFC 5987-encoded one. */
const SAFE_DISPOSITION =
  /^inline; filename="[\x20\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!#$&+.^_`|~-]*$/;

/** What would make a stored filename unsafe to show, save or put in a header; empty when it is safe. */
function filenameProblems(filename: string): string[] {
  const problems: string[] = [];
  if (!filename || filename === '.' || filename === '..') problems.push('empty or a dot name');
  if (/[/\\]/.test(filename)) problems.push('a path separator');
  if (/\p{Cc}/u.test(filename)) problems.push('a control character');
  if (/\p{Bidi_Control}/u.test(filename)) problems.push('a bidirectional control (spoofs the extension)');
  if ([...filename].length > 255) problems.push(`${[...filename].length} characters`);
  return problems;
}
