/**
 * Security L5: while the gateway's revocation watch is down it cannot see logouts, password changes or
 * deleted users, so it must not go on accepting access tokens as if nothing were revoked. After a short
 * grace (TROVE_REVOCATION_GRACE_SECONDS) every bearer call answers 503 with Retry-After until the watch is
 * back; then tokens work again and revocations made since are honoured.
 */
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { REVOCATIONS } from '@trove/proto-events';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { answer, newUser } from '../support/api';
import type { TestUser } from '../support/api';

const GRACE_SECONDS = 1;

describe('the revocation watch down (security e2e)', () => {
  let stack: Stack;
  let observer: NatsConnection;
  let alice: TestUser;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'gateway'],
      serviceEnv: { gateway: { TROVE_REVOCATION_GRACE_SECONDS: String(GRACE_SECONDS) } },
    });
    observer = await connect({ servers: stack.nats.url, ...stack.natsCredentials('observer') });
    alice = await newUser(stack);
  });
  afterAll(async () => {
    await observer?.close();
    await stack?.stop();
  });

  const features = () => answer(alice.api.GET('/v1/features'));
  const ready = async () => (await fetch(`${stack.gatewayUrl}/health/ready`)).status;

  it('refuses bearer calls with 503 and Retry-After once the watch has been down past the grace, and accepts them again once it is back', async () => {
    expect((await features()).status).toBe(200);

    // What the watch depends on: the revocation bucket (its JetStream stream) goes away.
    const jsm = await observer.jetstreamManager();
    await jsm.streams.delete(`KV_${REVOCATIONS.bucket}`);
    const refused = await waitFor(
      async () => {
        const res = await features();
        return res.status === 503 ? res : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'bearer calls to be refused' },
    );
    expect(refused.body).toEqual({ message: expect.stringMatching(/revocations cannot be checked/) });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await ready()).toBe(503);
    expect(stack.processes.gateway.output()).toContain('revocation watch down');

    // The bucket is back (as auth makes it at start): the watch resyncs and tokens work again.
    await observer.jetstream().views.kv(REVOCATIONS.bucket, { ttl: REVOCATIONS.ttlMs, history: 1 });
    await waitFor(async () => (await features()).status === 200, {
      timeoutMs: 20_000,
      intervalMs: 200,
      what: 'bearer calls to be accepted again',
    });
    expect(await ready()).toBe(200);

    // And a logout is honoured again at once.
    expect((await answer(alice.api.POST('/v1/auth/logout'))).status).toBe(204);
    expect((await features()).status).toBe(401);
  });
});
