/**
 * Security L1 for the owner's own signed content URLs, end to end (a real nats-server and the compiled
 * auth, media and gateway processes): each URL is signed for the session (and user) whose call
 * answered it, and stops opening — at once, not at its expiry — when that session logs out, when the
 * user's password changes (every session ends) or when the user is deleted, while a URL of another
 * live session, or of another user, keeps opening.
 */
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { noisePng } from '@trove/kit/testing/media';
import { adminApi, createApi, getItem, login, newUser, ok, upload } from '../support/api';
import type { Api, TestUser } from '../support/api';

/** What a content URL answers without any token: its status. */
const fetchStatus = async (url: string) => (await fetch(url)).status;

/** A second session of `user`: its own login, its own client. */
async function secondSession(stack: Stack, user: TestUser, password = user.password): Promise<Api> {
  const tokens = await ok(login(stack.gatewayUrl, user.username, password), 200);
  return createApi(stack.gatewayUrl, { bearer: tokens.accessToken });
}

/** The item's URLs as `api`'s session is handed them: the original (there at once, without the worker). */
async function urlsOf(api: Api, id: string): Promise<string[]> {
  const item = await getItem(api, id);
  return [item.sourceUrl];
}

describe("the owner's signed content URLs end with their session (security e2e)", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'gateway'] });
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('a URL made for the session answers 401 once the session logged out; another session’s URL still opens', async () => {
    const alice = await newUser(stack);
    const { id } = await ok(upload(alice.api, await noisePng(), 'mine.png'), 201);
    const other = await secondSession(stack, alice);
    const [first] = await urlsOf(alice.api, id);
    const [second] = await urlsOf(other, id);
    // Bound to their session: the two sessions get different URLs for the same bytes.
    expect(new URL(first!).searchParams.get('sid')).not.toBe(new URL(second!).searchParams.get('sid'));
    expect(await fetchStatus(first!)).toBe(200);
    expect(await fetchStatus(second!)).toBe(200);

    expect((await alice.api.POST('/v1/auth/logout')).response.status).toBe(204);
    expect(await fetchStatus(first!)).toBe(401);
    expect(await fetchStatus(second!)).toBe(200);
  });

  it('a password change ends every URL of the user’s sessions; a URL of the new session opens', async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const { id } = await ok(upload(alice.api, await noisePng(), 'mine.png'), 201);
    const { id: bobsId } = await ok(upload(bob.api, await noisePng(), 'bobs.png'), 201);
    const other = await secondSession(stack, alice);
    const urls = [...(await urlsOf(alice.api, id)), ...(await urlsOf(other, id))];
    const [bobs] = await urlsOf(bob.api, bobsId);
    for (const url of urls) expect(await fetchStatus(url)).toBe(200);

    const password = 'Another-Harbour-Light-77';
    await ok(adminApi(stack).PUT('/v1/users/{id}', { params: { path: { id: alice.id } }, body: { password } }), 204);
    // Auth writes the revocations into the bucket; the gateway's watch sees them within moments.
    await waitFor(async () => ((await Promise.all(urls.map(fetchStatus))).every((s) => s === 401) ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'every URL of the old sessions to answer 401',
    });
    const [fresh] = await urlsOf(await secondSession(stack, alice, password), id);
    expect(await fetchStatus(fresh!)).toBe(200);
    expect(await fetchStatus(bobs!)).toBe(200);
  });

  it('a deleted user’s URLs answer 401 at once, refused by the gateway alone; another user’s still open', async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const { id } = await ok(upload(alice.api, await noisePng(), 'mine.png'), 201);
    const { id: bobsId } = await ok(upload(bob.api, await noisePng(), 'bobs.png'), 201);
    const [url] = await urlsOf(alice.api, id);
    const [bobs] = await urlsOf(bob.api, bobsId);
    expect(await fetchStatus(url!)).toBe(200);

    // With media stopped the item cannot be removed (nor looked up): a 401 is the gateway's own refusal,
    // not an item already gone (which would answer 404) nor a failed lookup (503).
    await stack.processes.media!.stop();
    try {
      expect(
        (await adminApi(stack).DELETE('/v1/users/{id}', { params: { path: { id: alice.id } } })).response.status,
      ).toBe(204);
      expect(await fetchStatus(url!)).toBe(401);
      expect(await fetchStatus(bobs!)).toBe(503);
    } finally {
      await stack.startService('media');
    }
    expect(await fetchStatus(url!)).toBe(401);
    expect(await fetchStatus(bobs!)).toBe(200);
  });
});
