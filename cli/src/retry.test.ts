import { backoffMs, HttpError, isTransient, parseRetryAfter, withRetry } from './retry';

const networkError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('retry', () => {
  it('tells transient failures from final ones', () => {
    expect(isTransient(new HttpError(503, 'unavailable'))).toBe(true);
    expect(isTransient(new HttpError(500, 'internal'))).toBe(true);
    expect(isTransient(new HttpError(429, 'slow down'))).toBe(true);
    expect(isTransient(new HttpError(408, 'timeout'))).toBe(true);
    expect(isTransient(networkError('ECONNRESET'))).toBe(true);
    expect(isTransient(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413, 501, 507])
      expect(isTransient(new HttpError(status, 'no'))).toBe(false);
    expect(isTransient(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBe(false);
    expect(isTransient(new Error('plain'))).toBe(false);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('waits exponentially with jitter, capped, and as long as Retry-After says', () => {
    const half = { random: () => 0.5, baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(new HttpError(503, ''), a, half))).toEqual([
      75, 150, 300, 600, 750, 750,
    ]);
    expect(backoffMs(new HttpError(429, '', 5000), 1, half)).toBe(1000);
    expect(backoffMs(new HttpError(429, '', 300), 1, half)).toBe(300);
  });

  it('tries again while the failure is transient, then answers', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls === 1) throw new HttpError(429, 'too many', 2000);
        if (calls === 2) throw networkError('ECONNRESET');
        return 'done';
      },
      { sleep: async (ms) => void waits.push(ms), random: () => 0, baseMs: 100 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    expect(waits).toEqual([2000, 100]);
  });

  it('gives up after the last try, and at once on a final failure', async () => {
    let calls = 0;
    const sleep = async () => {};
    await expect(
      withRetry(async () => (calls++, Promise.reject(new HttpError(502, 'bad gateway'))), { attempts: 3, sleep }),
    ).rejects.toThrow('bad gateway');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withRetry(async () => (calls++, Promise.reject(new HttpError(400, 'bad request'))), { sleep }),
    ).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });
});
