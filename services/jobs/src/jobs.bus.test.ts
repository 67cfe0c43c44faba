/**
 * The jobs service as it runs in its process, minus the process: its RPC handlers, event consumers and
 * runner, wired by the `wire()` main.ts runs, on a real nats-server (JetStream), its repository on the
 * embedded store (SQLite), a stand-in media service answering `trove.v1.media.walk` and a stand-in
 * worker that takes the queued work and reports each item done, as the workers do.
 */
import { randomUUID } from 'node:crypto';
import {
  createJobRpc,
  getJobRpc,
  jobItemDoneEvent,
  listJobsRpc,
  processMediaItemWork,
  updateJobRpc,
  userDeletedEvent,
  walkMediaItemsRpc,
  WORKER_COMPONENTS,
} from '@trove/proto-events';
import type { JobV1 } from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import { startBusRig, waitFor } from '@trove/kit/testing';
import type { BusRig } from '@trove/kit/testing';
import { FakeMediaWalk } from './ports/media.fake';
import { wire } from './wire';
import type { Jobs } from './wire';

const ALL = [...WORKER_COMPONENTS];

describe('jobs over NATS: RPCs, the runner and the workers’ reports', () => {
  let rig: BusRig;
  let jobs: Jobs;
  const media = new FakeMediaWalk();
  const alice = randomUUID();
  const bob = randomUUID();
  /** What the stand-in worker was given, by job and item. */
  const worked: Array<{ jobId: string; mediaItemId: string; components: string[] }> = [];

  beforeAll(async () => {
    rig = await startBusRig({
      service: 'jobs',
      mediaItems: async () => [],
      mediaHandlers: [rpcHandler(walkMediaItemsRpc, (req) => media.walk(req))],
    });
    jobs = await wire({
      bus: rig.bus,
      store: rig.store,
      log: rig.log,
      runner: { maxInFlight: 2, leaseMs: 60_000, pollMs: 20 },
    });
    await rig.serveWiring(jobs);
    await rig.client.consume(processMediaItemWork, { durable: 'test-worker' }, async (work) => {
      if (!work.jobId) return;
      worked.push({ jobId: work.jobId, mediaItemId: work.mediaItemId, components: work.components ?? [] });
      await rig.client.publish(
        jobItemDoneEvent,
        { userId: work.userId, jobId: work.jobId, mediaItemId: work.mediaItemId, outcome: 'processed' },
        { msgId: `done-${work.jobId}-${work.mediaItemId}` },
      );
    });
  });
  afterAll(async () => {
    jobs?.runner.stop();
    await rig?.close();
  });

  const get = (userId: string, id: string) => rig.client.request(getJobRpc, { userId, id });
  const list = async (userId: string) =>
    (await rig.client.request(listJobsRpc, { userId, page: 1, limit: 10 })).jobs.map((j) => [j.id, j.status]);

  it('answers job calls with the schema-checked shapes and the right errors (runner not started)', async () => {
    const job = await rig.client.request(createJobRpc, { userId: alice, components: 'places,things', allowed: ALL });
    expect(job).toMatchObject({ components: 'places,things', status: 'SCHEDULED', done: 0, total: 0 });
    expect(await get(alice, job.id)).toEqual(job);
    expect(await list(alice)).toEqual([[job.id, 'SCHEDULED']]);

    await expect(
      rig.client.request(createJobRpc, { userId: alice, components: 'ocr', allowed: ALL }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'job already running' });
    await expect(
      rig.client.request(createJobRpc, { userId: bob, components: 'no-such-thing', allowed: ALL }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(get(bob, job.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'job not found' });
    await expect(
      rig.client.request(updateJobRpc, { userId: bob, id: job.id, status: 'STOPPED' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'job not found' });
    await expect(
      rig.client.request(updateJobRpc, { userId: alice, id: job.id, status: 'PAUSED' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: 'invalid job status transition' });

    await rig.client.request(updateJobRpc, { userId: alice, id: job.id, status: 'STOPPED' });
    expect((await get(alice, job.id)).status).toBe('STOPPED');
    expect(await list(bob)).toEqual([]);
  });

  it('walks the owner’s items through media, queues their work and completes once the worker reports them', async () => {
    const items = media.add(alice, 5);
    media.add(bob, 2);
    jobs.runner.start();
    const job = await rig.client.request(createJobRpc, { userId: alice, components: 'places,faces', allowed: ALL });

    let last: JobV1 | undefined;
    await waitFor(async () => (last = await get(alice, job.id)).status === 'COMPLETED', { what: 'job completed' });
    expect(last).toMatchObject({ status: 'COMPLETED', done: 5, total: 5, lastMediaItemId: items[4]!.id });
    const mine = worked.filter((w) => w.jobId === job.id);
    expect(mine.map((w) => w.mediaItemId).sort()).toEqual(items.map((i) => i.id).sort());
    expect(new Set(mine.map((w) => w.components.join(',')))).toEqual(new Set(['places,faces']));
  });

  it('removes a deleted user’s jobs', async () => {
    const job = await rig.client.request(createJobRpc, { userId: bob, components: 'metadata', allowed: ALL });
    await rig.client.publish(
      userDeletedEvent,
      { userId: bob, deletedAt: new Date().toISOString() },
      { msgId: `deleted-${bob}` },
    );
    await waitFor(async () => (await list(bob)).length === 0, { what: 'bob’s jobs removed' });
    await expect(get(bob, job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await list(alice)).length).toBe(2);
  });
});
