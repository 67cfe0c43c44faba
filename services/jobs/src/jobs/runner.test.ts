/**
 * The jobs service's rules and its runner over the real repository (SQLite), with a fake media walk
 * and a recording work queue; a fake worker reports the items done the way the workers do.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, openDocStore } from '@trove/kit';
import type { DocStore } from '@trove/kit';
import { WORKER_COMPONENTS } from '@trove/proto-events';
import { waitFor } from '@trove/kit/testing';
import { FakeMediaWalk } from '../ports/media.fake';
import { RecordingQueue } from '../ports/queue.fake';
import { JobsRepository } from './repository';
import { JobRunner } from './runner';
import { JobsService } from './service';

const log = createLogger({ service: 'jobs-test', level: 'silent' });
const ALL = [...WORKER_COMPONENTS];

describe('jobs and their runner (SQLite, fake media and queue)', () => {
  let dir: string;
  let store: DocStore;
  let repo: JobsRepository;
  let jobs: JobsService;
  let media: FakeMediaWalk;
  let queue: RecordingQueue;
  const runners: JobRunner[] = [];
  const alice = randomUUID();
  const bob = randomUUID();

  const runner = (opts: { maxInFlight?: number; leaseMs?: number; q?: RecordingQueue } = {}) => {
    const r = new JobRunner({
      repo,
      media,
      queue: opts.q ?? queue,
      log,
      options: { maxInFlight: opts.maxInFlight ?? 3, leaseMs: opts.leaseMs ?? 60_000, pollMs: 5, batch: 5 },
    });
    runners.push(r);
    return r;
  };
  /** The fake worker: every item published and not reported yet is reported done (in flight at most `max` at that moment). */
  let reported: Set<string>;
  let mostInFlight: number;
  const work = async () => {
    const pending = queue.work.filter((w) => !reported.has(`${w.jobId}:${w.mediaItemId}`));
    mostInFlight = Math.max(mostInFlight, pending.length);
    for (const w of pending) {
      reported.add(`${w.jobId}:${w.mediaItemId}`);
      await jobs.itemDone(w.jobId, w.mediaItemId);
    }
  };
  const until = (what: string, check: () => Promise<boolean>, opts: { working?: boolean } = {}) =>
    waitFor(
      async () => {
        if (opts.working !== false) await work();
        return (await check()) || undefined;
      },
      { timeoutMs: 20_000, intervalMs: 5, what },
    );
  const statusOf = async (id: string) => (await jobs.get(alice, id)).status;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trove-jobs-'));
    store = await openDocStore({ service: 'jobs', dataDir: dir });
    repo = await JobsRepository.open(store);
    jobs = new JobsService(repo);
    media = new FakeMediaWalk();
    queue = new RecordingQueue();
    reported = new Set();
    mostInFlight = 0;
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("the users' calls", () => {
    it('a new job is SCHEDULED with no progress; a second while one is active is a conflict; after it stops, another may start', async () => {
      const job = await jobs.create({ userId: alice, components: 'places,classification', allowed: ALL });
      expect(job).toEqual({
        id: expect.any(String),
        components: 'places,classification',
        status: 'SCHEDULED',
        lastMediaItemId: null,
        done: 0,
        total: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      await expect(jobs.create({ userId: alice, components: 'things', allowed: ALL })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'job already running',
      });
      // Another user is not held up.
      await jobs.create({ userId: bob, components: 'things', allowed: ALL });
      await jobs.update({ userId: alice, id: job.id, status: 'STOPPED' });
      const next = await jobs.create({ userId: alice, components: 'things', allowed: ALL });
      expect((await jobs.list(alice, 1, 15)).map((j) => j.id)).toEqual([next.id, job.id]);
    });

    it("unknown and empty components are a bad request; another user's or an unknown job is not found", async () => {
      await expect(jobs.create({ userId: alice, components: 'places,telepathy', allowed: ALL })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      const job = await jobs.create({ userId: alice, components: 'places', allowed: ALL });
      await expect(jobs.get(bob, job.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'job not found' });
      await expect(jobs.update({ userId: bob, id: job.id, status: 'STOPPED' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(jobs.get(alice, randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await jobs.list(bob, 1, 15)).toEqual([]);
    });

    it('a transition not in the table is a conflict: pausing a SCHEDULED job, resuming a RUNNING one, anything after STOPPED', async () => {
      const job = await jobs.create({ userId: alice, components: 'places', allowed: ALL });
      await expect(jobs.update({ userId: alice, id: job.id, status: 'PAUSED' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: 'invalid job status transition',
      });
      await expect(jobs.update({ userId: alice, id: job.id, status: 'RUNNING' })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await jobs.update({ userId: alice, id: job.id, status: 'STOPPED' });
      for (const status of ['RUNNING', 'PAUSED', 'STOPPED'] as const)
        await expect(jobs.update({ userId: alice, id: job.id, status })).rejects.toMatchObject({ code: 'CONFLICT' });
    });
  });

  describe('the runner', () => {
    it("walks every item in (createdAt, id) order with the job's components, at most maxInFlight at once, and completes with done = total", async () => {
      const items = media.add(alice, 24);
      media.add(bob, 3);
      const job = await jobs.create({ userId: alice, components: 'places,people', allowed: ALL });
      await runner({ maxInFlight: 3 }).tick();
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.work.map((w) => w.mediaItemId)).toEqual(items.map((i) => i.id));
      expect(queue.work.every((w) => w.jobId === job.id && w.components.join() === 'places,faces')).toBe(true);
      expect(queue.publishes).toBe(24);
      expect(mostInFlight).toBeLessThanOrEqual(3);
      expect(await jobs.get(alice, job.id)).toMatchObject({
        status: 'COMPLETED',
        done: 24,
        total: 24,
        lastMediaItemId: items[23].id,
      });
    });

    it('does not complete while items are in flight, and counts an item reported twice once', async () => {
      media.add(alice, 2);
      const job = await jobs.create({ userId: alice, components: 'things', allowed: ALL });
      await runner().tick();
      await until('both items published', async () => queue.work.length === 2, { working: false });
      await jobs.itemDone(job.id, queue.work[0].mediaItemId);
      await jobs.itemDone(job.id, queue.work[0].mediaItemId);
      expect(await jobs.get(alice, job.id)).toMatchObject({ status: 'RUNNING', done: 1, total: 2 });
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect((await jobs.get(alice, job.id)).done).toBe(2);
    });

    it('paused, it publishes nothing more and its cursor stays; resumed, it goes on after the cursor and completes', async () => {
      const items = media.add(alice, 12);
      const job = await jobs.create({ userId: alice, components: 'things', allowed: ALL });
      const r = runner({ maxInFlight: 2 });
      r.start();
      await until('some items done', async () => (await jobs.get(alice, job.id)).done >= 4, { working: true });
      await jobs.update({ userId: alice, id: job.id, status: 'PAUSED' });
      await r.idle();
      const paused = await jobs.get(alice, job.id);
      const published = queue.publishes;
      await work();
      // Several looks of the runner later: nothing moved.
      for (let i = 0; i < 5; i++) await r.tick();
      await r.idle();
      expect(queue.publishes).toBe(published);
      expect(await jobs.get(alice, job.id)).toMatchObject({
        status: 'PAUSED',
        lastMediaItemId: paused.lastMediaItemId,
      });
      await jobs.update({ userId: alice, id: job.id, status: 'RUNNING' });
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.work.map((w) => w.mediaItemId)).toEqual(items.map((i) => i.id));
      expect(queue.publishes).toBe(12);
    });

    it('a runner that dies mid-walk: the next one publishes what it left unpublished and goes on, no item twice, none skipped', async () => {
      const items = media.add(alice, 10);
      const job = await jobs.create({ userId: alice, components: 'places', allowed: ALL });
      // Dies on its 5th publish: item 5 is recorded and the cursor past it, its work never sent.
      const dying = new RecordingQueue();
      dying.failAfter = 4;
      const first = runner({ maxInFlight: 10, q: dying });
      await first.tick();
      await first.idle();
      expect(dying.work).toHaveLength(4);
      expect((await jobs.get(alice, job.id)).lastMediaItemId).toBe(items[4].id);
      for (const w of dying.work) queue.work.push(w);
      queue.publishes = dying.publishes;
      await runner({ maxInFlight: 10 }).tick();
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.work.map((w) => w.mediaItemId).sort()).toEqual(items.map((i) => i.id).sort());
      expect(queue.publishes).toBe(10);
      expect(await jobs.get(alice, job.id)).toMatchObject({ done: 10, total: 10 });
    });

    it('of two runners looking at once, one drives the job; a lease that runs out lets another take over', async () => {
      media.add(alice, 6);
      const job = await jobs.create({ userId: alice, components: 'places', allowed: ALL });
      const [a, b] = [runner({ leaseMs: 60_000 }), runner({ leaseMs: 60_000 })];
      await Promise.all([a.tick(), b.tick()]);
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.publishes).toBe(6);
      // A lease held by a runner that no longer renews it (killed) is free once it expires.
      const other = await jobs.create({ userId: alice, components: 'things', allowed: ALL });
      expect(await repo.lease(other.id, 'killed-runner', 50)).not.toBeNull();
      expect(await repo.lease(other.id, 'another', 50)).toBeNull();
      await waitFor(async () => (await repo.lease(other.id, 'another', 60_000)) ?? undefined, {
        timeoutMs: 2000,
        intervalMs: 10,
        what: 'the lease to run out',
      });
    });

    it('a `search` job asks for the index rebuild once and completes without queueing work', async () => {
      media.add(alice, 3);
      const job = await jobs.create({ userId: alice, components: 'search', allowed: ALL });
      await runner().tick();
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.rebuilds).toEqual([job.id]);
      expect(queue.work).toEqual([]);
    });

    it('a `faces` job asks explore to regroup people once, after every item is done; other jobs do not', async () => {
      media.add(alice, 7);
      queue.doneItems = (jobId) => [...reported].filter((r) => r.startsWith(`${jobId}:`)).length;
      const job = await jobs.create({ userId: alice, components: 'people', allowed: ALL });
      await runner({ maxInFlight: 2 }).tick();
      await until('the job to complete', async () => (await statusOf(job.id)) === 'COMPLETED');
      expect(queue.regroups).toEqual([{ jobId: job.id, doneItems: 7 }]);
      const places = await jobs.create({ userId: alice, components: 'places,things', allowed: ALL });
      await runner().tick();
      await until('the places job to complete', async () => (await statusOf(places.id)) === 'COMPLETED');
      expect(queue.regroups.map((r) => r.jobId)).toEqual([job.id]);
    });

    it("user deletion stops a running job and removes the user's jobs", async () => {
      media.add(alice, 6);
      const job = await jobs.create({ userId: alice, components: 'places', allowed: ALL });
      const r = runner({ maxInFlight: 1 });
      await r.tick();
      await until('the first item published', async () => queue.work.length >= 1, { working: false });
      await jobs.userDeleted(alice);
      await r.idle();
      const published = queue.publishes;
      await work();
      await r.tick();
      await r.idle();
      expect(queue.publishes).toBe(published);
      await expect(jobs.get(alice, job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
});
