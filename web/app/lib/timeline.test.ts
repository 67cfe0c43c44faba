import { parseView, viewQuery } from './media-views';
import { monthEnd, monthLabel, parseMonth } from './timeline';

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
