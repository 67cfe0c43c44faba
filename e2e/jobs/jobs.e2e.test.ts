/**
 * Per-user features and processing jobs end to end: a real nats-server, the compiled auth, media,
 * worker, explore, jobs services and gateway as their own processes, every answer checked against
 * openapi.yaml by the gateway, with the worker's default settings (the peer's scenario runs against
 * those: jobs.jpeg's best thing, a donut at 0.59, is over the default 0.35).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startStack, waitFor, waitForProgress } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { FIXTURES, itWithFixtures, jpegAt } from '@trove/kit/testing/media';
import type { components } from '@trove/openapi';
import { completeFeatures } from '@trove/proto-events';
import {
  adminApi,
  answer,
  login,
  newUser,
  ok,
  PASSWORD,
  uniqueName,
  upload,
  uploadReady,
  createApi,
} from '../support/api';
import type { Api, TestUser } from '../support/api';

type Job = components['schemas']['Job'];

const FEATURE_DISABLED = { message: 'feature disabled' };

describe('features and jobs (e2e)', () => {
  let stack: Stack;

  const byId = (id: string) => ({ params: { path: { id } } });
  const jobOf = (api: Api, id: string): Promise<Job> => ok(api.GET('/v1/jobs/{id}', byId(id)), 200);
  /** Waits until `check` holds, for as long as the job keeps moving (its `done` count or status changing). */
  const jobUntil = (api: Api, id: string, check: (job: Job) => boolean, what: string) => {
    const seen = new Set<string>();
    return waitForProgress(
      async () => {
        const job = await jobOf(api, id);
        seen.add(`${job.status}:${job.done}`);
        return { progress: seen.size, result: check(job) ? job : undefined };
      },
      { stallMs: 90_000, intervalMs: 100, what },
    );
  };
  const setStatus = (api: Api, id: string, status: 'RUNNING' | 'PAUSED' | 'STOPPED') =>
    answer(api.PUT('/v1/jobs/{id}', { ...byId(id), body: { status } }));
  /** The worker's "media item processed" lines for one job: the items it processed for that job, once per processing. */
  const processedFor = (jobId: string): string[] =>
    stack.processes.worker
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; jobId?: string; mediaItemId?: string })
      .filter((l) => l.msg === 'media item processed' && l.jobId === jobId)
      .map((l) => l.mediaItemId!);

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'media', 'worker', 'explore', 'jobs', 'gateway'],
      serviceEnv: {
        // One item in flight keeps a 24-item job running long enough to pause it or kill its runner midway;
        // a killed runner's lease runs out after 3 s.
        jobs: { TROVE_JOBS_MAX_IN_FLIGHT: '1', TROVE_JOBS_LEASE_SECONDS: '3', TROVE_JOBS_POLL_MS: '100' },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  itWithFixtures(
    'the peer scenario: a user created with features that leave out explore, places, things and people has them off and uploads jobs.jpeg (no things); given them, a `places,classification` job runs to COMPLETED and the item has its things',
    async () => {
      const admin = adminApi(stack);
      const username = uniqueName();
      // As the peer's clients send it: a string holding the JSON object; the keys it leaves out are off.
      const features = '{"albums":true,"favourites":true,"hidden":true,"trash":true,"sharing":true,"jobs":true}';
      const created = await ok(
        admin.POST('/v1/users', { body: { name: 'Jobs', username, password: PASSWORD, features } }),
        201,
      );
      expect(created.features).toEqual({
        ...completeFeatures({}),
        explore: false,
        places: false,
        things: false,
        people: false,
      });
      expect((await ok(admin.GET('/v1/users/{id}', byId(created.id)), 200)).features).toEqual(created.features);
      const api = createApi(stack.gatewayUrl, {
        bearer: (await ok(login(stack.gatewayUrl, username), 200)).accessToken,
      });
      expect(await ok(api.GET('/v1/features'), 200)).toEqual(created.features);

      const item = await uploadReady(api, await readFile(join(FIXTURES, 'jobs.jpeg')), 'jobs.jpeg', 120_000);
      expect(await ok(api.GET('/v1/mediaItems/{id}/things', byId(item.id)), 200)).toEqual([]);
      expect(await answer(api.GET('/v1/explore/things'))).toMatchObject({ status: 403, body: FEATURE_DISABLED });
      expect(await answer(api.GET('/v1/explore/places'))).toMatchObject({ status: 403, body: FEATURE_DISABLED });

      expect(
        (
          await answer(
            admin.PUT('/v1/users/{id}', {
              ...byId(created.id),
              body: { features: { explore: true, places: true, things: true } },
            }),
          )
        ).status,
      ).toBe(204);
      // Left out of the update, people keeps its value.
      expect(await ok(api.GET('/v1/features'), 200)).toEqual({ ...completeFeatures({}), people: false });
      // Switching them on computes nothing by itself: the upload ran without places and things.
      expect(await ok(api.GET('/v1/mediaItems/{id}/things', byId(item.id)), 200)).toEqual([]);
      expect(await ok(api.GET('/v1/explore/things'), 200)).toEqual([]);

      const job = await ok(api.POST('/v1/jobs', { body: { components: 'places,classification' } }), 201);
      expect(job).toMatchObject({
        components: 'places,classification',
        status: 'SCHEDULED',
        done: 0,
        lastMediaItemId: null,
      });
      const completed = await jobUntil(api, job.id, (j) => j.status === 'COMPLETED', 'the job to complete');
      expect(completed).toMatchObject({ done: 1, processed: 1, total: 1, lastMediaItemId: item.id });
      const things = await waitFor(
        async () => {
          const list = await ok(api.GET('/v1/mediaItems/{id}/things', byId(item.id)), 200);
          return list.length > 0 ? list : undefined;
        },
        { timeoutMs: 30_000, what: 'jobs.jpeg to be filed under its things' },
      );
      expect(things.map((t) => t.name)).toContain('Donut');
      expect((await ok(api.GET('/v1/mediaItems/{id}/places', byId(item.id)), 200)).map((p) => p.country)).toEqual([
        'India',
      ]);
    },
    300_000,
  );

  it("unknown features are refused; a feature off answers 403 for its collections and an empty list for an item's", async () => {
    const admin = adminApi(stack);
    expect(
      (
        await answer(
          admin.POST('/v1/users', {
            body: { name: 'X', username: uniqueName(), password: PASSWORD, features: '{"telepathy":true}' },
          }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await answer(
          admin.POST('/v1/users', {
            body: { name: 'X', username: uniqueName(), password: PASSWORD, features: { albums: 'yes' } as never },
          }),
        )
      ).status,
    ).toBe(400);
    const user = await newUser(stack, { features: completeFeatures({ albums: false, jobs: false, trash: false }) });
    expect(await answer(user.api.GET('/v1/albums'))).toMatchObject({ status: 403, body: FEATURE_DISABLED });
    expect(await answer(user.api.GET('/v1/trash'))).toMatchObject({ status: 403, body: FEATURE_DISABLED });
    expect(await answer(user.api.GET('/v1/jobs'))).toMatchObject({ status: 403, body: FEATURE_DISABLED });
    expect(await answer(user.api.POST('/v1/jobs', { body: { components: 'places' } }))).toMatchObject({
      status: 403,
      body: FEATURE_DISABLED,
    });
    const { id } = await ok(upload(user.api, await jpegAt(10, 10), 'a.jpg'), 201);
    expect(await ok(user.api.GET('/v1/mediaItems/{id}/albums', byId(id)), 200)).toEqual([]);
    expect(await ok(user.api.GET('/v1/favourites'), 200)).toEqual([]);
    // Sharing off: an album cannot be made shared (links already shared keep working for visitors).
    const unsharing = await newUser(stack, { features: JSON.stringify(completeFeatures({ sharing: false })) });
    expect(await answer(unsharing.api.POST('/v1/albums', { body: { name: 'Trip', shared: true } }))).toMatchObject({
      status: 403,
      body: FEATURE_DISABLED,
    });
  }, 120_000);

  describe('a library of 24 photos', () => {
    let user: TestUser;
    let ids: string[];

    beforeAll(async () => {
      user = await newUser(stack);
      ids = [];
      for (let i = 0; i < 24; i++)
        ids.push((await ok(upload(user.api, await jpegAt(-40 + i * 3, 10 + i), `p${i}.jpg`), 201)).id);
      // Gives up only when no upload gets processed for a while: a busy machine is slower, not stuck.
      await waitForProgress(
        async () => {
          const items = await ok(user.api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }), 200);
          const ready = items.filter((i) => i.status === 'READY').length;
          return { progress: ready, result: items.length === 24 && ready === 24 ? true : undefined };
        },
        { stallMs: 90_000, intervalMs: 500, what: 'the 24 uploads to be processed' },
      );
    }, 900_000);

    it('a `places,things,people` job: paused, lastMediaItemId holds still; resumed, it completes; then PUT → 409', async () => {
      const { api } = user;
      expect(await answer(api.POST('/v1/jobs', { body: { components: 'places,telepathy' } }))).toMatchObject({
        status: 400,
      });
      const job = await ok(api.POST('/v1/jobs', { body: { components: 'places,things,people' } }), 201);
      expect(await answer(api.POST('/v1/jobs', { body: { components: 'places' } }))).toMatchObject({
        status: 409,
        body: { message: 'job already running' },
      });
      await jobUntil(api, job.id, (j) => j.done >= 2, 'the job to be under way');
      expect(await setStatus(api, job.id, 'PAUSED')).toMatchObject({ status: 204 });
      const paused = await jobOf(api, job.id);
      expect(paused.status).toBe('PAUSED');
      expect(paused.done).toBeLessThan(24);
      // The requirement itself: for 10 s, the paused job queues nothing (its cursor does not move).
      const holdUntil = Date.now() + 10_000;
      while (Date.now() < holdUntil) {
        expect(await jobOf(api, job.id)).toMatchObject({ status: 'PAUSED', lastMediaItemId: paused.lastMediaItemId });
        await new Promise((r) => setTimeout(r, 500));
      }
      // Still active while paused: a second job waits.
      expect(await answer(api.POST('/v1/jobs', { body: { components: 'places' } }))).toMatchObject({
        status: 409,
        body: { message: 'job already running' },
      });
      expect(await setStatus(api, job.id, 'PAUSED')).toMatchObject({
        status: 409,
        body: { message: 'invalid job status transition' },
      });
      expect(await setStatus(api, job.id, 'RUNNING')).toMatchObject({ status: 204 });
      const completed = await jobUntil(api, job.id, (j) => j.status === 'COMPLETED', 'the resumed job to complete');
      expect(completed).toMatchObject({ done: 24, total: 24 });
      expect(await setStatus(api, job.id, 'STOPPED')).toMatchObject({
        status: 409,
        body: { message: 'invalid job status transition' },
      });
      expect(await setStatus(api, job.id, 'RUNNING')).toMatchObject({ status: 409 });
      // Every item was processed for the job, each once (the pause held back, it did not drop or repeat).
      expect(processedFor(job.id).sort()).toEqual([...ids].sort());
      expect((await ok(api.GET('/v1/jobs'), 200))[0]).toMatchObject({ id: job.id, status: 'COMPLETED' });
      expect(
        await answer(
          createApi(stack.gatewayUrl, { bearer: (await newUser(stack)).token }).GET('/v1/jobs/{id}', byId(job.id)),
        ),
      ).toMatchObject({ status: 404, body: { message: 'job not found' } });
    }, 900_000);

    it('the jobs service SIGKILLed mid-job and started again: the job completes, every item processed once by it', async () => {
      const { api } = user;
      const job = await ok(api.POST('/v1/jobs', { body: { components: 'places,things' } }), 201);
      const before = await jobUntil(api, job.id, (j) => j.done >= 3, 'the job to be under way');
      await stack.processes.jobs.kill();
      expect(before.done).toBeLessThan(24);
      await stack.startService('jobs');
      const completed = await jobUntil(
        api,
        job.id,
        (j) => j.status === 'COMPLETED',
        'the job to complete after the restart',
      );
      expect(completed).toMatchObject({ done: 24, total: 24, lastMediaItemId: expect.any(String) });
      // "Once": the worker logs one "media item processed" line per processing, naming the job.
      const processed = processedFor(job.id);
      expect(processed).toHaveLength(24);
      expect(new Set(processed)).toEqual(new Set(ids));
    }, 900_000);
  });
});
