import { parseView, viewQuery } from './media-views';
import { monthEnd, monthLabel, parseMonth, yearLabels } from './timeline';

describe('timeline months', () => {
  it('takes YYYY-MM only', () => {
    expect(parseMonth('2019-06')).toBe('2019-06');
    for (const bad of ['2019-6', '2019-13', '2019-00', '19-06', '2019-06-01', '', null, undefined])
      expect(parseMonth(bad)).toBeNull();
  });

  it('a jump starts at the last instant of the month (UTC), leap years and December included', () => {
    expect(monthEnd('2024-02')).toBe('2024-02-29T23:59:59.999Z');
    expect(monthEnd('2023-12')).toBe('2023-12-31T23:59:59.999Z');
    expect(monthLabel('2019-06')).toBe('June 2019');
  });

  it('the library view carries the month through the JSON route’s query', () => {
    expect(parseView(new URLSearchParams('view=library&at=2019-06'))).toEqual({ kind: 'library', at: '2019-06' });
    expect(parseView(new URLSearchParams('view=library&at=June'))).toEqual({ kind: 'library' });
    expect(viewQuery({ kind: 'library', at: '2019-06' })).toBe('view=library&at=2019-06');
    expect(viewQuery({ kind: 'library' })).toBe('view=library');
  });
});

describe('the scrubber’s year labels', () => {
  const months = (...ms: string[]) => ms.map((month) => ({ month, count: 1 }));
  const buckets = months('2026-11', '2026-01', '2025-06', '2024-06', '2024-01', '2019-03', '2001-09');

  it('names each year once, at its newest month', () => {
    const from = [0, 0.1, 0.2, 0.4, 0.5, 0.7, 0.9];
    expect(yearLabels(buckets, from, 1000, 14).map((l) => [l.year, l.i])).toEqual([
      ['2026', 0],
      ['2025', 2],
      ['2024', 3],
      ['2019', 5],
      ['2001', 6],
    ]);
  });

  it('leaves out a year that would overlap the one named above it, never the newest', () => {
    // 2025 is 10 px under 2026, 2024 20 px under it: 2025 goes, 2024 stays; 2001 is 5 px under 2019.
    const from = [0, 0.005, 0.01, 0.02, 0.5, 0.8, 0.805];
    expect(yearLabels(buckets, from, 1000, 14).map((l) => l.year)).toEqual(['2026', '2024', '2019']);
    // A taller bar has room for all of them.
    expect(yearLabels(buckets, from, 4000, 14).map((l) => l.year)).toEqual(['2026', '2025', '2024', '2019', '2001']);
  });
});
