/**
 * Security H1: a burst of logins must not kill auth. Each password hash costs scrypt's 128 MiB; the
 * attack is many parallel `POST /v1/auth/login` (known and unknown user names, which cost the same
 * on purpose) from many addresses, so no per-address limit stops it. Auth's peak memory must stay
 * under the chart's limit, every answer must be a login's answer (200, 401, or 429 with
 * Retry-After), and auth must still log people in afterwards.
 */
import { readFileSync } from 'node:fs';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { PASSWORD, adminApi, answer, login, ok, uniqueName } from '../support/api';
import type { User } from '../support/api';

/** The chart's memory limit for auth (charts/trove/values.yaml). */
const AUTH_MEMORY_LIMIT_MIB = 256;
const BURST = 24;

/** A process's peak resident memory so far (Linux: VmHWM), in MiB. */
function peakRssMib(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for pid ${pid}`);
  return Number(match[1]) / 1024;
}

describe('a login burst (security e2e)', () => {
  let stack: Stack;
  let user: User;

  beforeAll(async () => {
    // Limits per address and per user name high enough that only the hashing gate can refuse; the gate as
    // by default (one hash at a time, 16 waiting) but with a longer wait, so a loaded machine still serves some.
    stack = await startStack({
      services: ['auth', 'gateway'],
      serviceEnv: {
        auth: {
          TROVE_LOGIN_RATE_LIMIT: '1000',
          TROVE_LOGIN_USER_RATE_LIMIT: '1000',
          TROVE_LOGIN_SLOWDOWN_MS: '0',
          TROVE_AUTH_HASH_WAIT_MS: '10000',
        },
      },
    });
    user = await ok(
      adminApi(stack).POST('/v1/users', { body: { name: 'Burst', username: uniqueName('burst'), password: PASSWORD } }),
      201,
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it(`${BURST} parallel logins from ${BURST} addresses keep auth under ${AUTH_MEMORY_LIMIT_MIB} MiB and answer each one`, async () => {
    const auth = stack.processes.auth.child;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => {
        const address = `203.0.113.${i + 1}`;
        if (i % 3 === 0) return answer(login(stack.gatewayUrl, user.username, PASSWORD, address));
        if (i % 3 === 1) return answer(login(stack.gatewayUrl, user.username, 'Not-The-Password-1', address));
        return answer(login(stack.gatewayUrl, uniqueName('ghost'), 'Not-The-Password-1', address));
      }),
    );

    expect(auth.exitCode).toBeNull();
    expect(peakRssMib(auth.pid!)).toBeLessThan(AUTH_MEMORY_LIMIT_MIB);
    for (const [i, a] of answers.entries()) {
      const expected = i % 3 === 0 ? 200 : 401;
      // Either the login's own answer, or refused for now with a time to come back.
      expect([expected, 429]).toContain(a.status);
      if (a.status === 429) {
        expect(a.body).toEqual({ message: expect.stringMatching(/too many/) });
        expect(Number(a.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      }
    }
    // Not everything was refused: the gate queues a burst briefly and works through it.
    expect(answers.filter((a) => a.status !== 429).length).toBeGreaterThanOrEqual(4);

    // Afterwards auth answers as usual.
    expect((await answer(login(stack.gatewayUrl, user.username, PASSWORD, '198.51.100.7'))).status).toBe(200);
  });
});
