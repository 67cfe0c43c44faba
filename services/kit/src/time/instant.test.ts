import { instantOf } from './instant';

describe('instantOf', () => {
  it('reads RFC 3339 date-times with their offsets, in any case', () => {
    expect(instantOf('2024-06-01T12:00:00+02:00').toISOString()).toBe('2024-06-01T10:00:00.000Z');
    expect(instantOf('2024-06-01t12:00:00z').toISOString()).toBe('2024-06-01T12:00:00.000Z');
    expect(instantOf('0001-01-01T00:00:00Z').toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });

  it('takes a leap second as the last millisecond of its minute, with its offset and fraction', () => {
    expect(instantOf('2016-12-31T23:59:60Z').toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect(instantOf('2016-12-31T23:59:60.5Z').toISOString()).toBe('2016-12-31T23:59:59.999Z');
    expect(instantOf('2017-01-01T00:59:60+01:00').toISOString()).toBe('2016-12-31T23:59:59.999Z');
  });

  it('answers an invalid Date for what names no instant', () => {
    for (const text of ['', 'yesterday', '2024-13-01T00:00:00Z', '2024-06-01T24:61:00Z'])
      expect(Number.isNaN(instantOf(text).getTime())).toBe(true);
  });
});
