import { docStorePerTest } from '@trove/kit/testing';
import { LoginRateLimiter, addressKey } from './rate-limit';
import { LoginAttemptsRepository } from './repository';

describe('login rate limiter (sliding window over the document store)', () => {
  const db = docStorePerTest('auth');
  let now: number;
  const MINUTE = 60_000;

  beforeEach(async () => {
    now = 100 * MINUTE; // the start of a window
  });

  const limiter = async (limit = 10) =>
    new LoginRateLimiter(await LoginAttemptsRepository.open(db.store), { limit, now: () => now });

  it('allows the limit, refuses the next attempt with a Retry-After to the window end', async () => {
    const l = await limiter();
    for (let i = 0; i < 10; i++) expect(await l.hit(['username:alice'])).toEqual({ allowed: true, attempts: i + 1 });
    now += 15_000;
    expect(await l.hit(['username:alice'])).toEqual({ allowed: false, retryAfterSeconds: 45 });
  });

  it('counts each key separately, and refuses when any key is over', async () => {
    const l = await limiter(3);
    for (let i = 0; i < 3; i++) await l.hit(['username:alice', 'address:10.0.0.1']);
    expect(await l.hit(['username:bob', 'address:10.0.0.2'])).toEqual({ allowed: true, attempts: 1 });
    expect((await l.hit(['username:bob', 'address:10.0.0.1'])).allowed).toBe(false);
    expect((await l.hit(['username:alice', 'address:10.0.0.3'])).allowed).toBe(false);
  });

  it('does not reset at a window boundary: the previous window still weighs', async () => {
    const l = await limiter(10);
    now += MINUTE - 2000; // a burst at the very end of one window...
    for (let i = 0; i < 10; i++) await l.hit(['username:alice']);
    now += 3000; // ...goes on one second into the next
    expect((await l.hit(['username:alice'])).allowed).toBe(false);
  });

  it('forgets attempts once the sliding window has passed them', async () => {
    const l = await limiter(10);
    for (let i = 0; i < 11; i++) await l.hit(['username:alice']);
    expect((await l.hit(['username:alice'])).allowed).toBe(false);
    now += 2 * MINUTE;
    expect(await l.hit(['username:alice'])).toEqual({ allowed: true, attempts: 1 });
    expect(await l.purgeExpired()).toBeGreaterThan(0);
  });

  it('counts concurrent attempts exactly (atomic increments)', async () => {
    const l = await limiter(20);
    const results = await Promise.all(Array.from({ length: 30 }, () => l.hit(['username:alice'])));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
  });
});

describe('client address keys', () => {
  it('are the client key under `address:`, an IPv6 /64 counting as one client', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('address:203.0.113.7');
    expect(addressKey('2001:db8:1:2::9')).toBe('address:2001:db8:1:2::/64');
  });
});
