/**
 * Media under stress, end to end: a 2 GiB upload must not grow the gateway's memory, and a batch
 * of uploads must all be processed exactly once even when one of two workers is SIGKILLed
 * half-way. Real nats-server, real service processes (two workers started here).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { serviceEntry, startStack, waitForProgress } from '@trove/kit/testing';
import type { ServiceProcess, Stack } from '@trove/kit/testing';
import { noiseJpeg } from '@trove/kit/testing/media';
import { getItem, newUser, ok, status, upload } from '../support/api';
import type { TestUser } from '../support/api';
import { rssBytes, streamUpload } from './support';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** `size` bytes that are an MP4 by their magic bytes (ftyp isom) and filler after that, produced chunk by chunk. */
function bigVideoLike(size: number): Readable {
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isommp41')]);
  const chunk = Buffer.alloc(MiB);
  for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((i * 2654435761) >>> 0, i);
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) {
        this.push(ftyp);
        sent += ftyp.length;
        return;
      }
      const n = Math.min(chunk.length, size - sent);
      if (n <= 0) return this.push(null);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

const processedCount = (p: ServiceProcess) => (p.output().match(/"msg":"media item processed"/g) ?? []).length;

describe('media under stress (e2e)', () => {
  let stack: Stack;
  let user: TestUser;

  beforeAll(async () => {
    // No worker yet: the big upload is about the gateway alone.
    stack = await startStack({
      services: ['auth', 'gateway', 'media'],
      env: {
        TROVE_WORKER_CONCURRENCY: '2',
        TROVE_WORKER_ACK_WAIT_SECONDS: '5',
        TROVE_WORKER_BACKOFF_MS: '500',
        TROVE_LOG_LEVEL: 'info',
      },
    });
    user = await newUser(stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('a 2 GiB upload streams through the gateway: 201, resident memory growth under 100 MB', async () => {
    const pid = stack.processes.gateway.child.pid!;
    // Warm up the upload path so that its code is loaded before the baseline is taken.
    expect(await status(upload(user.api, await noiseJpeg(64, 64), 'warm-up.jpg'))).toBe(201);
    const baseline = await rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      void rssBytes(pid).then(
        (rss) => (peak = Math.max(peak, rss)),
        () => undefined,
      );
    }, 100);
    const size = 2 * GiB;
    const started = Date.now();
    let res;
    try {
      res = await streamUpload(stack.gatewayUrl, user.token, bigVideoLike(size), 'huge.mp4', { contentLength: size });
    } finally {
      clearInterval(sampler);
    }
    const seconds = (Date.now() - started) / 1000;
    const growthMb = (peak - baseline) / MiB;
    console.log(
      `2 GiB upload: ${seconds.toFixed(1)} s (${(size / MiB / seconds).toFixed(0)} MiB/s), gateway RSS ${(baseline / MiB).toFixed(0)} → peak ${(peak / MiB).toFixed(0)} MiB (+${growthMb.toFixed(1)} MiB)`,
    );
    expect(res.status).toBe(201);
    const id = String(res.body.id);
    expect((await getItem(user.api, id)).size).toBe(size);
    expect(growthMb).toBeLessThan(100);
    // Keep the disk small and spare the workers a 2 GiB copy: remove the original, as a purge would.
    await rm(join(stack.dataDir, 'blobs', 'media', user.id, id), { recursive: true, force: true });
  }, 180_000);

  it('50 uploads while one of two workers is SIGKILLed mid-batch: all 50 READY, none duplicated', async () => {
    // The killed worker's temp files stay behind, as on a real crash: keep them inside the stack's data dir.
    const tmp = join(stack.dataDir, 'worker-tmp');
    await mkdir(tmp, { recursive: true });
    const env = { TMPDIR: tmp };
    const [victim, survivor] = await Promise.all([
      stack.startExtra('worker-1', serviceEntry('worker'), env),
      stack.startExtra('worker-2', serviceEntry('worker'), env),
    ]);

    const files = await Promise.all(Array.from({ length: 50 }, () => noiseJpeg(1600, 1200)));
    const ids: string[] = [];
    let killedAfter = -1;
    // Both waits below give up only when nothing moves for a while: on a busy machine (CI runs two suites at
    // once) the batch is slower, not stuck.
    let uploaded = 0;
    const killer = waitForProgress(
      async () => {
        const processed = processedCount(victim);
        return { progress: processed + uploaded, result: processed >= 5 ? processed : undefined };
      },
      { stallMs: 90_000, intervalMs: 20, what: 'worker-1 to process some items' },
    ).then(async () => {
      killedAfter = processedCount(victim);
      await victim.kill();
    });
    // Four uploads at a time.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < files.length) {
          const i = next++;
          const { id } = await ok(
            upload(user.api, files[i], `batch-${String(i).padStart(2, '0')}-${randomUUID().slice(0, 8)}.jpg`),
            201,
          );
          ids.push(id);
          uploaded++;
        }
      }),
    );
    await killer;
    expect(victim.child.signalCode).toBe('SIGKILL');

    const ready = await waitForProgress(
      async () => {
        const items = (await ok(user.api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }))).filter((i) =>
          i.filename.startsWith('batch-'),
        );
        const done = items.filter((i) => i.status === 'READY').length;
        return { progress: done, result: items.length === 50 && done === 50 ? items : undefined };
      },
      { stallMs: 90_000, intervalMs: 500, what: 'all 50 items to be READY' },
    );
    expect(new Set(ids).size).toBe(50);
    expect(new Set(ready.map((i) => i.id))).toEqual(new Set(ids));
    expect(new Set(ready.map((i) => i.filename)).size).toBe(50);
    for (const item of ready)
      expect(item).toMatchObject({ width: 1600, height: 1200, mimeType: 'image/jpeg', failureReason: null });
    const redelivered = (survivor.output().match(/"delivery":([2-9])/g) ?? []).length;
    console.log(
      `worker-1 processed ${killedAfter} before SIGKILL; worker-2 processed ${processedCount(survivor)} (${redelivered} of them redeliveries)`,
    );
    expect(killedAfter).toBeGreaterThanOrEqual(5);
    expect(processedCount(survivor)).toBeGreaterThanOrEqual(50 - killedAfter);
  }, 900_000);
});
