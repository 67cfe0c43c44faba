import { MonthCountsCache, type MonthCount } from './month-counts-cache';

/** A computation that answers `count` for a month and says how often it ran. */
function counter(count = 1) {
  const calls: number[] = [];
  return {
    calls,
    compute: async (): Promise<MonthCount[]> => {
      calls.push(count);
      return [{ month: '2024-01', count }];
    },
  };
}

it('keeps an answer per user and query until a write of that user’s items', async () => {
  const cache = new MonthCountsCache({ maxAgeMs: Infinity });
  const a = counter(1);
  expect(await cache.get('u1', 'library', a.compute)).toEqual([{ month: '2024-01', count: 1 }]);
  expect(await cache.get('u1', 'library', a.compute)).toEqual([{ month: '2024-01', count: 1 }]);
  expect(a.calls).toHaveLength(1);
  const other = counter(2);
  await cache.get('u1', 'favourites', other.compute);
  await cache.get('u2', 'library', other.compute);
  expect(other.calls).toHaveLength(2);
  cache.forget('u2');
  await cache.get('u1', 'library', a.compute);
  expect(a.calls).toHaveLength(1);
  cache.forget('u1');
  await cache.get('u1', 'library', a.compute);
  await cache.get('u1', 'favourites', other.compute);
  expect([a.calls.length, other.calls.length]).toEqual([2, 3]);
});

it('does not keep an answer computed while a write of the user’s items happened', async () => {
  const cache = new MonthCountsCache({ maxAgeMs: Infinity });
  let release!: () => void;
  const started = new Promise<void>((resolve) => (release = resolve));
  const slow = cache.get('u1', 'library', async () => {
    await started;
    return [{ month: '2024-01', count: 1 }];
  });
  cache.forget('u1');
  release();
  expect(await slow).toEqual([{ month: '2024-01', count: 1 }]);
  const fresh = counter(2);
  expect(await cache.get('u1', 'library', fresh.compute)).toEqual([{ month: '2024-01', count: 2 }]);
  expect(fresh.calls).toHaveLength(1);
});

it('serves an answer no longer than maxAgeMs (other replicas’ writes), and keeps maxUsers users', async () => {
  let now = 0;
  const cache = new MonthCountsCache({ maxAgeMs: 5_000, maxUsers: 2, now: () => now });
  const a = counter();
  await cache.get('u1', 'library', a.compute);
  now = 5_000;
  await cache.get('u1', 'library', a.compute);
  expect(a.calls).toHaveLength(1);
  now = 5_001;
  await cache.get('u1', 'library', a.compute);
  expect(a.calls).toHaveLength(2);
  await cache.get('u2', 'library', a.compute);
  await cache.get('u3', 'library', a.compute);
  // u1 was the least recently used: gone.
  await cache.get('u1', 'library', a.compute);
  expect(a.calls).toHaveLength(5);
});

it('answers copies: a caller changing one changes nothing kept', async () => {
  const cache = new MonthCountsCache({ maxAgeMs: Infinity });
  const first = await cache.get('u1', 'library', counter(3).compute);
  first[0].count = 99;
  expect(await cache.get('u1', 'library', counter(4).compute)).toEqual([{ month: '2024-01', count: 3 }]);
});
