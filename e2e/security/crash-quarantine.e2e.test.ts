/**
 * Security M5: an upload that kills the worker (a decompression bomb the OOM killer answers, a
 * decoder's crash) must not take other users' items down with it. The attack: one user uploads a
 * file whose processing kills the worker process, every time, while another user's photo is being
 * processed beside it. The worker is started with TROVE_WORKER_TEST_CRASH_ON (test stacks only): an
 * item whose name contains the marker SIGKILLs the process, a real death. With one delivery per
 * item (TROVE_WORKER_MAX_DELIVER=1), a crash that spent the other item's delivery would leave it
 * FAILED; it must be READY, and the hostile item FAILED as quarantined after two deaths.
 */
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { noiseJpeg } from '@trove/kit/testing/media';
import { getItem, newUser, ok, upload } from '../support/api';
import type { TestUser } from '../support/api';

const MARKER = 'kills-the-worker';

describe('an upload that kills the worker (security e2e)', () => {
  let stack: Stack;
  let attacker: TestUser;
  let victim: TestUser;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'gateway', 'media', 'worker'],
      serviceEnv: {
        worker: {
          TROVE_WORKER_TEST_CRASH_ON: MARKER,
          TROVE_WORKER_MAX_DELIVER: '1',
          TROVE_WORKER_CONCURRENCY: '2',
          TROVE_WORKER_ACK_WAIT_SECONDS: '3',
          TROVE_WORKER_BACKOFF_MS: '200',
        },
      },
    });
    attacker = await newUser(stack);
    victim = await newUser(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("the file is quarantined (FAILED, with the reason) after killing the worker twice; the other user's photo in flight with it is READY", async () => {
    const photo = await ok(upload(victim.api, await noiseJpeg(1600, 1200), 'holiday.jpg'), 201);
    const bomb = await ok(upload(attacker.api, await noiseJpeg(64, 48), `${MARKER}.jpg`), 201);
    let deaths = 0;
    // The test is the supervisor (Kubernetes, `make up`): a worker that died is started again.
    const [hostile, innocent] = await waitFor(
      async () => {
        const worker = stack.processes.worker.child;
        if (worker.exitCode !== null || worker.signalCode !== null) {
          deaths++;
          await stack.startService('worker');
        }
        const items = [await getItem(attacker.api, bomb.id), await getItem(victim.api, photo.id)];
        return items.every((i) => i.status === 'READY' || i.status === 'FAILED') ? items : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 200, what: 'both items settled' },
    );
    expect(hostile.status).toBe('FAILED');
    expect(hostile.failureReason).toBe('quarantined: the process handling it died 2 times while it was in flight');
    expect(innocent.status).toBe('READY');
    expect(deaths).toBe(2);
    // The worker that is left keeps processing.
    const after = await ok(upload(victim.api, await noiseJpeg(320, 240), 'later.jpg'), 201);
    const later = await waitFor(
      async () => {
        const item = await getItem(victim.api, after.id);
        return item.status === 'READY' || item.status === 'FAILED' ? item : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'a later upload processed' },
    );
    expect(later.status).toBe('READY');
  }, 240_000);
});
