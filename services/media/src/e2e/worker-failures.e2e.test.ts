/**
 * A file that is broken for good fails at once, end to end: the worker does not retry what retrying
 * cannot fix, so the item is FAILED with its reason within seconds even under the default backoff
 * (10 s, 60 s, 300 s), and the worker goes on with the next upload. Real nats-server and service
 * processes.
 */
import { randomBytes } from 'node:crypto';
import { startStack } from '../../../kit/src/testing/stack';
import type { Stack } from '../../../kit/src/testing/stack';
import { cameraJpeg, Client, newUser } from './helpers';

describe('worker failures (e2e)', () => {
  let stack: Stack;
  let api: Client;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'gateway', 'media', 'worker'], env: { TROVE_WORKER_BACKOFF_MS: '', TROVE_WORKER_MAX_DELIVER: '' } });
    api = new Client(stack.gatewayUrl);
    api = api.as((await newUser(stack, api)).token);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('a JPEG header followed by 20 KB of random bytes is FAILED with its reason in seconds, and the next upload is processed', async () => {
    const header = (await cameraJpeg()).subarray(0, 20);
    const broken = await api.upload(Buffer.concat([header, randomBytes(20 * 1024)]), 'broken.jpg');
    expect(broken.status).toBe(201);
    // A retry would come 10 s later at the earliest, the FAILED after minutes.
    const failed = await api.settled(broken.body.id, 8_000);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'broken.jpg: JPEG is truncated or malformed (no end-of-image marker)' });
    expect(stack.processes.worker.output()).not.toContain('will retry');

    const good = await api.upload(await cameraJpeg(), 'good.jpg');
    expect(await api.settled(good.body.id, 30_000)).toMatchObject({ status: 'READY', width: 1200, height: 800 });
  }, 60_000);
});
