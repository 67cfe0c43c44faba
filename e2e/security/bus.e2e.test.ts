/**
 * Security M4: services must not trust the bus blindly. Each service has its own NATS user whose
 * allow-lists come from the contracts (proto-events' permissions), so a compromised worker (it opens
 * hostile files) is refused by nats-server itself when it calls auth's user administration or
 * publishes outside its list; and media and explore accept a processed result only when its blob
 * keys are the item's own (`media/<userId>/<mediaItemId>/…`), so a forged result cannot point one
 * user's item at another user's original.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { inboxPrefixOf, mediaBlobKey, mediaProcessedEvent } from '@trove/proto-events';
import type { MediaItemProcessedV1 } from '@trove/proto-events';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegAt, noisePng } from '@trove/kit/testing/media';
import { content } from '../media/support';
import { adminApi, getItem, newUser, ok, uniqueName, uploadReady } from '../support/api';
import type { MediaItem, TestUser } from '../support/api';

describe('the bus: one NATS user per service, each within its contracts (security e2e)', () => {
  let stack: Stack;
  let alice: TestUser;
  let bob: TestUser;
  let bobsPhoto: MediaItem;
  let paris: MediaItem;
  let worker: NatsConnection;
  let observer: NatsConnection;
  /** The genuine processed results, by item id, as the worker published them. */
  const results = new Map<string, MediaItemProcessedV1>();
  const enc = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'gateway', 'media', 'worker', 'explore'] });
    observer = await connect({ servers: stack.nats.url, ...stack.natsCredentials('observer') });
    observer.subscribe(mediaProcessedEvent.subject, {
      callback: (_e, m) => results.set((m.json() as MediaItemProcessedV1).mediaItemId, m.json()),
    });
    [alice, bob] = await Promise.all([newUser(stack), newUser(stack)]);
    bobsPhoto = await uploadReady(bob.api, await noisePng(), 'bob.png');
    // What a compromised worker process holds: its own NATS credentials.
    worker = await connect({
      servers: stack.nats.url,
      ...stack.natsCredentials('worker'),
      inboxPrefix: inboxPrefixOf('worker'),
      reconnect: false,
    });
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await observer?.close();
    await stack?.stop();
  });

  const violationsFor = (subject: string) => stack.nats.violations().filter((line) => line.includes(`"${subject}"`));

  it('every service works within its allow-lists: an upload is processed end to end and the server refused nothing', async () => {
    paris = await uploadReady(alice.api, await jpegAt(48.8584, 2.2945), 'paris.jpg');
    expect(stack.nats.violations()).toEqual([]);
  });

  it("the worker's user calling auth's user administration is refused by the server: no account is made or listed", async () => {
    const username = uniqueName('planted');
    await expect(
      worker.request(
        'trove.v1.auth.users.create',
        enc({ name: 'Planted', username, password: 'Blue-Harbour-Lights-42' }),
        { timeout: 5000 },
      ),
    ).rejects.toThrow(/permissions violation/i);
    await expect(worker.request('trove.v1.auth.users.list', enc({}), { timeout: 5000 })).rejects.toThrow(
      /permissions violation/i,
    );
    await waitFor(() => violationsFor('trove.v1.auth.users.create').length > 0, {
      timeoutMs: 5000,
      what: 'the server to log the refused publish',
    });
    expect(violationsFor('trove.v1.auth.users.create').join('\n')).toMatch(/Publish Violation.*User "worker"/);
    const users = await ok(adminApi(stack).GET('/v1/users', { params: { query: { limit: 100 } } }), 200);
    expect(users.map((u) => u.username)).not.toContain(username);
  });

  it("publishing outside its list (another user's deletion, a work item, a stream's configuration) is refused, and nothing happens", async () => {
    const js = worker.jetstream();
    await expect(
      js.publish('events.v1.user.deleted', enc({ userId: bob.id, deletedAt: new Date().toISOString() }), {
        msgID: randomUUID(),
        timeout: 3000,
      }),
    ).rejects.toThrow();
    await expect(js.publish('work.v1.media.process', enc({}), { timeout: 3000 })).rejects.toThrow();
    await expect(
      worker.request(
        '$JS.API.STREAM.UPDATE.TROVE_EVENTS',
        enc({ name: 'TROVE_EVENTS', subjects: ['events.v1.>'], max_age: 1e9 }),
        { timeout: 5000 },
      ),
    ).rejects.toThrow(/permissions violation/i);
    await expect(worker.request('$JS.API.STREAM.DELETE.TROVE_EVENTS', enc({}), { timeout: 5000 })).rejects.toThrow(
      /permissions violation/i,
    );
    await waitFor(
      () =>
        ['events.v1.user.deleted', 'work.v1.media.process', '$JS.API.STREAM.UPDATE.TROVE_EVENTS'].every(
          (s) => violationsFor(s).length > 0,
        ),
      {
        timeoutMs: 5000,
        what: 'the server to log every refused publish',
      },
    );
    // Bob is still there with his photo.
    expect((await ok(bob.api.GET('/v1/mediaItems/{id}', { params: { path: { id: bobsPhoto.id } } }), 200)).status).toBe(
      'READY',
    );
  });

  it("subscribing to another service's requests or replies (logins and their tokens) is refused", async () => {
    for (const subject of ['trove.v1.auth.login', '_INBOX.gateway.>', '_INBOX.>']) {
      const sub = worker.subscribe(subject);
      const ended = (async () => {
        for await (const _ of sub) return 'message';
        return 'closed';
      })();
      await expect(ended).rejects.toThrow(/permissions violation/i);
      // The client hears of the refusal before the server's log line is written: wait for the line.
      await waitFor(() => violationsFor(subject).length > 0, {
        timeoutMs: 5000,
        what: `the server to log the refused subscription to ${subject}`,
      });
      expect(violationsFor(subject).join('\n')).toMatch(/Subscription Violation/);
    }
  });

  it("a forged processed result whose blob keys point at another user's original is not accepted: neither item changes", async () => {
    const genuine = results.get(paris.id)!;
    expect(genuine).toBeDefined();
    expect(genuine.place).not.toBeNull();
    const bobsOriginal = mediaBlobKey(bob.id, bobsPhoto.id, 'original');
    const [aliceBefore, bobBefore] = [await getItem(alice.api, paris.id), await getItem(bob.api, bobsPhoto.id)];
    const alicePreview = await content(alice.api, paris.id, 'preview');
    const ignoredBefore = (name: string) =>
      stack.processes[name].output().split('processing result ignored').length - 1;
    const [mediaIgnored, exploreIgnored] = [ignoredBefore('media'), ignoredBefore('explore')];
    const forged: MediaItemProcessedV1[] = [
      // Alice's item shows Bob's photo as its preview and thumbnail, and moves to another place.
      {
        ...genuine,
        variants: { preview: bobsOriginal, thumbnail: bobsOriginal, playback: null },
        place: genuine.place ? { ...genuine.place, name: 'Forgedville' } : null,
      },
      // The same through a '..' way out of her item's prefix.
      {
        ...genuine,
        variants: {
          ...genuine.variants,
          preview: `media/${alice.id}/${paris.id}/../../${bob.id}/${bobsPhoto.id}/original`,
        },
      },
      // Bob's item pointed at Alice's original.
      {
        ...genuine,
        userId: bob.id,
        mediaItemId: bobsPhoto.id,
        variants: { preview: mediaBlobKey(alice.id, paris.id, 'original'), thumbnail: null, playback: null },
      },
    ];
    const js = worker.jetstream();
    for (const result of forged) await js.publish(mediaProcessedEvent.subject, enc(result), { msgID: randomUUID() });

    // Media ignores each (logged), explore too, for its places and for search.
    await waitFor(() => ignoredBefore('media') - mediaIgnored >= forged.length, {
      timeoutMs: 20_000,
      what: 'media to ignore every forged result',
    });
    await waitFor(() => ignoredBefore('explore') - exploreIgnored >= 2 * forged.length, {
      timeoutMs: 20_000,
      what: 'explore (places, search) to ignore every forged result',
    });
    expect(await getItem(alice.api, paris.id)).toEqual(aliceBefore);
    expect(await getItem(bob.api, bobsPhoto.id)).toEqual(bobBefore);
    const after = await content(alice.api, paris.id, 'preview');
    expect(after.status).toBe(200);
    expect(after.bytes.equals(alicePreview.bytes)).toBe(true);
    const places = await ok(alice.api.GET('/v1/explore/places'), 200);
    expect(JSON.stringify(places)).not.toContain('Forgedville');
  });
});
