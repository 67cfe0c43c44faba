import { RateLimiter } from './rate-limiter';

describe('RateLimiter (token buckets per key)', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  it('allows `limit` events at once, then refuses with the exact wait until the next one', () => {
    const limiter = new RateLimiter({ limit: 10, windowMs: 60_000, now: clock });
    for (let i = 0; i < 10; i++) expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 6 });
    expect(limiter.check('a')).toEqual({ allowed: false, retryAfterSeconds: 6 });
    now += 4_000;
    expect(limiter.check('a')).toEqual({ allowed: false, retryAfterSeconds: 2 });
    now += 2_000;
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('keeps keys apart, and check() counts nothing', () => {
    const limiter = new RateLimiter({ limit: 2, now: clock });
    for (let i = 0; i < 5; i++) expect(limiter.check('a')).toEqual({ allowed: true });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.check('a').allowed).toBe(false);
    expect(limiter.check('b')).toEqual({ allowed: true });
  });

  it('refund() gives back one event, never beyond the limit, and remembers nothing for an unknown key', () => {
    const limiter = new RateLimiter({ limit: 2, now: clock });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    limiter.refund('a');
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    limiter.refund('a');
    limiter.refund('a');
    limiter.refund('a');
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    limiter.refund('b');
    expect(limiter.size).toBe(1);
  });

  it('refills to full after a quiet window, never beyond', () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: clock });
    for (let i = 0; i < 3; i++) limiter.take('a');
    now += 10 * 60_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('remembers at most maxKeys clients, forgetting the one counted longest ago', () => {
    const limiter = new RateLimiter({ limit: 1, now: clock, maxKeys: 3 });
    for (const k of ['a', 'b', 'c', 'd']) limiter.take(k);
    expect(limiter.size).toBe(3);
    expect(limiter.check('a')).toEqual({ allowed: true });
    expect(limiter.check('d').allowed).toBe(false);
  });
});
