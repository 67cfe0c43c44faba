import { chunk, limiter, pool } from './batch';

describe('chunk', () => {
  it('cuts into groups of at most the size, in order', () => {
    const items = Array.from({ length: 2501 }, (_, i) => i);
    const groups = chunk(items, 1000);
    expect(groups.map((g) => g.length)).toEqual([1000, 1000, 501]);
    expect(groups.flat()).toEqual(items);
  });
  it('makes no group of nothing', () => {
    expect(chunk([], 1000)).toEqual([]);
    expect(chunk([1, 2], 2)).toEqual([[1, 2]]);
  });
  it('refuses a size below one', () => {
    expect(() => chunk([1], 0)).toThrow('positive integer');
  });
});

describe('pool', () => {
  it('runs at most `concurrency` at a time and answers in the items’ order', async () => {
    let running = 0;
    let peak = 0;
    const results = await pool([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(3);
  });
});

describe('limiter', () => {
  it('lets at most `concurrency` run, starting the waiting in order as others end', async () => {
    const limit = limiter(2);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const job = (i: number, ms: number) =>
      limit(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, ms));
        running--;
        return i;
      });
    const failing = limit(async () => Promise.reject(new Error('boom'))).catch((e: Error) => e.message);
    expect(await Promise.all([job(0, 20), job(1, 5), job(2, 5), job(3, 5)])).toEqual([0, 1, 2, 3]);
    expect(await failing).toBe('boom');
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3]);
  });
});
