/**
 * A file that is broken for good fails at once, end to end: the worker does not retry what retrying
 * cannot fix, so the item is FAILED with its reason within seconds even under the default backoff
 * (10 s, 60 s, 300 s), and the worker goes on with the next upload. Real nats-server and service
 * processes.
 */
import { randomBytes } from 'node:crypto';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { cameraJpeg } from '@trove/kit/testing/media';
import { newUser, ok, settled, upload } from '../support/api';
import type { Api } from '../support/api';

describe('worker failures (e2e)', () => {
  let stack: Stack;
  let api: Api;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'gateway', 'media', 'worker'],
      env: { TROVE_WORKER_BACKOFF_MS: '', TROVE_WORKER_MAX_DELIVER: '' },
    });
    api = (await newUser(stack)).api;
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('a JPEG header followed by 20 KB of random bytes is FAILED with its reason in seconds, and the next upload is processed', async () => {
    const header = (await cameraJpeg()).subarray(0, 20);
    const broken = await ok(upload(api, Buffer.concat([header, randomBytes(20 * 1024)]), 'broken.jpg'), 201);
    // A retry would come 10 s later at the earliest, the FAILED after minutes.
    const failed = await settled(api, broken.id, 8_000);
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'broken.jpg: JPEG is malformed or cut off before its picture data',
    });
    expect(stack.processes.worker.output()).not.toContain('will retry');

    const good = await ok(upload(api, await cameraJpeg(), 'good.jpg'), 201);
    expect(await settled(api, good.id, 30_000)).toMatchObject({ status: 'READY', width: 1200, height: 800 });
  }, 60_000);
});
