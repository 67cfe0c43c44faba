import { checkChange, fromLocalInput, parsePlace, splitLatLon, toLocalInput } from './date-place';

// In the zone jest runs in (the browser e2e runs in Europe/Amsterdam, where the offset of each day is its own).
describe("editing an item's date and place", () => {
  it('shows an instant in local time and sends local time with the offset of that moment', () => {
    const local = new Date(2019, 6, 14, 16, 30, 5);
    expect(toLocalInput(local.toISOString())).toBe('2019-07-14T16:30:05');
    expect(toLocalInput('nonsense')).toBe('');
    for (const [input, when] of [
      ['2019-07-14T16:30', new Date(2019, 6, 14, 16, 30)],
      ['2019-01-14T16:30:05', new Date(2019, 0, 14, 16, 30, 5)],
      ['2019-01-14T16:30:05.000', new Date(2019, 0, 14, 16, 30, 5)],
    ] as const) {
      const sent = fromLocalInput(input)!;
      expect(sent.slice(0, 19)).toBe(`${input.slice(0, 16)}:${input.slice(17, 19) || '00'}`);
      expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
      expect(Date.parse(sent)).toBe(when.getTime());
    }
    // What goes out is the instant that came in.
    const sent = fromLocalInput(toLocalInput('2024-06-24T18:15:12.000Z'))!;
    expect(new Date(sent).toISOString()).toBe('2024-06-24T18:15:12.000Z');
  });

  it('refuses what is not a date and time', () => {
    for (const bad of ['', '2019-07-14', '2019-02-30T10:00', '14/07/2019 16:30', '2019-07-14T25:00'])
      expect({ bad, out: fromLocalInput(bad) }).toEqual({ bad, out: null });
  });

  it('reads a place from two fields: both numbers in range, or neither', () => {
    expect(parsePlace('52.3731', '-4.8922')).toEqual({ place: { latitude: 52.3731, longitude: -4.8922 } });
    expect(parsePlace(' ', '')).toEqual({ place: null });
    expect(parsePlace('52', '')).toEqual({ error: 'Enter both latitude and longitude, or neither.' });
    expect(parsePlace('91', '0')).toEqual({ error: 'The latitude must be a number from −90 to 90.' });
    expect(parsePlace('0', '-180.5')).toEqual({ error: 'The longitude must be a number from −180 to 180.' });
    expect(parsePlace('north', '4')).toHaveProperty('error');
    expect(parsePlace('-90', '180')).toEqual({ place: { latitude: -90, longitude: 180 } });
  });

  it('splits a pasted "lat, lon"', () => {
    expect(splitLatLon('52.3731, 4.8922')).toEqual(['52.3731', '4.8922']);
    expect(splitLatLon(' -33.86 151.21 ')).toEqual(['-33.86', '151.21']);
    expect(splitLatLon('52.3731')).toBeNull();
    expect(splitLatLon('Amsterdam')).toBeNull();
  });

  it('checks the shape of what the browser sends (the API checks the values)', () => {
    expect(checkChange({ creationTime: '2019-07-14T16:30:00+02:00' })).toEqual({
      creationTime: '2019-07-14T16:30:00+02:00',
    });
    expect(checkChange({ creationTime: null, latitude: null, longitude: null })).toEqual({
      creationTime: null,
      latitude: null,
      longitude: null,
    });
    expect(checkChange({ latitude: 1, longitude: 2, description: 'not this' })).toEqual({ latitude: 1, longitude: 2 });
    expect(checkChange({ latitude: 1 })).toMatch(/go together/);
    expect(checkChange({ latitude: '1', longitude: '2' })).toMatch(/go together/);
    expect(checkChange({ creationTime: 5 })).toMatch(/creationTime/);
    expect(checkChange({})).toBe('nothing to change');
  });
});
