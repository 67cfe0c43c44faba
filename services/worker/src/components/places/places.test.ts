/**
 * The places component over the real gazetteer (the pinned npm data): known points on every
 * continent, the issue's examples exactly, and the contract's shape.
 */
import { mediaPlaceSchema, validate } from '@trove/proto-events';
import { findPlace, gazetteer, placeAt, postcodeAt } from '.';
import type { Gazetteer, Place } from '.';
import knownPoints from './known-points.json';

/**
 * known-points.json: 175 positions on every continent with the place a person would name there.
 * Expected names are written from public knowledge; coordinates are rounded to 4 decimals. `alt`
 * lists genuine alternative names only (local forms, renamings, boroughs that are municipalities).
 * The rule was chosen on these same points, so the figures are in-sample.
 */
interface KnownPoint {
  label: string;
  lat: number;
  lon: number;
  /** null: no place expected (open sea, ice sheet). */
  city: string | null;
  alt?: string[];
  state?: string;
  stateAlt?: string[];
  country: string | null;
  /** landmark: city-centre landmarks (and places with none); hard: separate municipalities next to big cities, small towns, border twin towns; neighbourhood: outer districts of a big city. */
  set: 'landmark' | 'hard' | 'neighbourhood';
}
const KNOWN_POINTS = knownPoints as KnownPoint[];

let g: Gazetteer;
beforeAll(async () => {
  g = await gazetteer();
});

/** Case-, accent- and apostrophe-insensitive: "Montréal" is "Montreal". */
const norm = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’‘]/g, "'").toLowerCase().trim();
const oneOf = (got: string | null | undefined, want: string[]) =>
  got != null && want.some((w) => norm(w) === norm(got));

interface Tally {
  points: number;
  city: number;
  country: number;
  state: number;
  withState: number;
  misses: string[];
}

function tally(points: KnownPoint[]): Tally {
  const t: Tally = { points: points.length, city: 0, country: 0, state: 0, withState: 0, misses: [] };
  for (const p of points) {
    const got = placeAt(g, p.lat, p.lon);
    const cityOk = p.city === null ? got === null : oneOf(got?.city, [p.city, ...(p.alt ?? [])]);
    const countryOk = p.country === null ? got === null : got?.country === p.country;
    t.city += Number(cityOk);
    t.country += Number(countryOk);
    if (p.state) {
      t.withState++;
      if (oneOf(got?.state, [p.state, ...(p.stateAlt ?? [])])) t.state++;
    }
    if (!cityOk || !countryOk)
      t.misses.push(
        `${p.label}: ${got ? `${got.city}, ${got.country}` : 'null'} (expected ${p.city ?? 'null'}, ${p.country ?? 'null'})`,
      );
  }
  return t;
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}% (${n}/${of})`;

describe('places: known points', () => {
  it(`names the city on ≥ 95% and the country on all of ${KNOWN_POINTS.length} points over every continent`, () => {
    const sets = ['landmark', 'hard', 'neighbourhood'] as const;
    const rows = [
      ...sets.map((s) => [s, tally(KNOWN_POINTS.filter((p) => p.set === s))] as const),
      ['all', tally(KNOWN_POINTS)] as const,
    ];
    const all = rows[rows.length - 1][1];
    console.log(
      [
        'places accuracy (exact city / country / state):',
        ...rows.map(
          ([name, t]) =>
            `  ${name.padEnd(13)} ${String(t.points).padStart(3)} points  city ${pct(t.city, t.points)}  country ${pct(t.country, t.points)}  state ${pct(t.state, t.withState)}`,
        ),
        'misses:',
        ...all.misses.map((m) => `  ${m}`),
      ].join('\n'),
    );
    expect(all.points).toBeGreaterThanOrEqual(30);
    expect(all.city / all.points).toBeGreaterThanOrEqual(0.95);
    expect(all.country).toBe(all.points);
    expect(all.state / all.withState).toBeGreaterThanOrEqual(0.95);
  });

  it('covers every continent, and open sea and ice sheets', () => {
    const countries = new Set(KNOWN_POINTS.map((p) => p.country));
    for (const c of ['India', 'Japan', 'France', 'Nigeria', 'United States', 'Brazil', 'Australia', 'Antarctica'])
      expect(countries).toContain(c);
    expect(KNOWN_POINTS.filter((p) => p.city === null).length).toBeGreaterThan(0);
  });
});

describe('places: the issue examples', () => {
  const place = (
    name: string,
    town: string | null,
    state: string | null,
    country: string,
    countryCode: string,
    postcode: unknown = null,
  ) => ({ name, town, city: name, state, country, countryCode, postcode });

  it.each<[string, number, number, ReturnType<typeof place>]>([
    ['Bandra West', 19.0609, 72.8269, place('Mumbai', null, 'Maharashtra', 'India', 'IN', '400050')],
    ['the Eiffel Tower', 48.8584, 2.2945, place('Paris', null, 'Île-de-France', 'France', 'FR')],
    ['the Sydney Opera House', -33.8568, 151.2153, place('Sydney', 'The Rocks', 'New South Wales', 'Australia', 'AU')],
    ['Times Square', 40.758, -73.9855, place('New York', "Hell's Kitchen", 'New York', 'United States', 'US')],
    ['Tokyo Tower', 35.6586, 139.7454, place('Tokyo', null, 'Tokyo', 'Japan', 'JP')],
    [
      'west of Coimbatore',
      11.0221,
      76.7419,
      place('Coimbatore', null, 'Tamil Nadu', 'India', 'IN', expect.stringMatching(/^641\d{3}$/)),
    ],
  ])('%s', async (_label, lat, lon, expected) => {
    const got = await findPlace(lat, lon);
    expect(got).toMatchObject(expected);
    expect(got!.distanceKm).toBeLessThanOrEqual(30); // the city is chosen within 30 km
    expect(validate(mediaPlaceSchema, got)).toEqual({ valid: true, errors: [] });
  });

  it('the mid-Atlantic has no place', async () => {
    await expect(findPlace(30, -40)).resolves.toBeNull();
  });
});

describe('places: postcodes', () => {
  it.each<[string, number, number, string, string | null]>([
    ['Bandra West, Mumbai (PIN 400050)', 19.0609, 72.8269, 'IN', '400050'],
    ['Connaught Place, New Delhi', 28.6315, 77.2167, 'IN', '110001'],
    ['Charminar, Hyderabad', 17.3616, 78.4747, 'IN', '500002'],
    ['Victoria Memorial, Kolkata', 22.5448, 88.3426, 'IN', '700071'],
    ['Colaba, Mumbai', 18.9067, 72.8147, 'IN', '400005'],
    ['Shivajinagar, Pune', 18.5308, 73.8475, 'IN', '411005'],
    ['MG Road, Bengaluru', 12.9756, 77.605, 'IN', '560001'],
    ['a country with no shipped postcodes (the Eiffel Tower)', 48.8584, 2.2945, 'FR', null],
    ['nor the United States (Times Square)', 40.758, -73.9855, 'US', null],
  ])('%s', async (_label, lat, lon, countryCode, expected) => {
    await expect(postcodeAt(countryCode, lat, lon)).resolves.toBe(expected);
  });

  it('none farther than the maximum distance (open sea off Mumbai)', async () => {
    await expect(postcodeAt('IN', 18.9, 72.3)).resolves.toBeNull();
    await expect(postcodeAt('IN', 18.9, 72.3, 100)).resolves.toMatch(/^4\d{5}$/);
  });
});

describe('places: rule details', () => {
  it('the place is the city: its position is the city centre, its distance the one from the point', () => {
    // GeoNames puts Paris at 48.85341 N 2.3488 E (by Notre-Dame), 4 km from the Eiffel Tower.
    expect(placeAt(g, 48.8584, 2.2945)).toMatchObject({
      name: 'Paris',
      latitude: 48.85341,
      longitude: 2.3488,
      distanceKm: 4,
    });
  });

  it('a border town is in the country whose border it lies in', () => {
    expect(placeAt(g, 31.7587, -106.4869)).toMatchObject({ city: 'El Paso', countryCode: 'US' });
    expect(placeAt(g, 31.7393, -106.487)).toMatchObject({ city: 'Juárez', countryCode: 'MX' });
  });

  it('no place farther than maxDistanceKm', () => {
    // West of Coimbatore, the nearest place is Perūr, 19.4 km away.
    expect(placeAt(g, 11.0221, 76.7419, { maxDistanceKm: 19 })).toBeNull();
    expect(placeAt(g, 11.0221, 76.7419, { maxDistanceKm: 20 })).toMatchObject({ name: 'Perūr', distanceKm: 19.4 });
    expect(placeAt(g, 48.8584, 2.2945, { maxDistanceKm: 0.1 })).toBeNull();
  });

  it.each([
    [Number.NaN, 0],
    [0, Number.POSITIVE_INFINITY],
    [90.5, 10],
    [10, 180.5],
    [-91, 0],
  ])('an impossible position (%p, %p) has no place', (lat, lon) => {
    expect(placeAt(g, lat, lon)).toBeNull();
  });

  it('the gazetteer is loaded once per process', async () => {
    expect(await gazetteer()).toBe(g);
    expect(g.size).toBeGreaterThan(130_000);
  });

  it('every place it names fits the contract', () => {
    const results = KNOWN_POINTS.map((p) => placeAt(g, p.lat, p.lon)).filter((r): r is Place => r !== null);
    for (const r of results) expect(validate(mediaPlaceSchema, r)).toEqual({ valid: true, errors: [] });
  });
});
