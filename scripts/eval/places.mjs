/**
 * Places: each file of places.json (paths relative to the eval/ folder, most in ../metadata/files) read by
 * the worker's metadata component for its position, then named by the places component, as the pipeline does.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { placeMatches } from './scoring.mjs';
import { components, cpuTimed, limits, mean, ratio, sniff } from './common.mjs';

export async function evalPlaces(dir, { only }) {
  const labels = JSON.parse(await readFile(join(dir, 'places.json'), 'utf8'));
  const { extractMetadata, findPlace, closeExifTool } = components();
  const evalRoot = join(dir, '..', '..');
  const loaded = await cpuTimed(() => findPlace(0, 0)); // the gazetteer loads on the first lookup
  console.log(`\nplaces: gazetteer loaded in ${loaded.ms.toFixed(0)} ms of CPU`);
  let country = 0;
  let city = 0;
  let n = 0;
  const times = [];
  try {
    for (const [key, want] of Object.entries(labels.places)) {
      if (only && !key.includes(only)) continue;
      const path = join(evalRoot, key);
      if (!existsSync(path)) {
        console.log(`  ${key}: missing, left out`);
        continue;
      }
      n++;
      const type = await sniff(path);
      const meta = type ? await extractMetadata(path, type.mimeType, limits(), key) : null;
      let found = null;
      if (meta?.latitude != null && meta?.longitude != null) {
        const { value, ms } = await cpuTimed(() => findPlace(meta.latitude, meta.longitude));
        found = value;
        times.push(ms);
      }
      const m = placeMatches(found, want);
      if (m.country) country++;
      if (m.country && m.city) city++;
      if (!m.country || !m.city)
        console.log(
          `  ${key}: got ${found ? `${found.city}${found.town ? ` (${found.town})` : ''}, ${found.countryCode}` : meta?.latitude == null ? 'no position' : 'no place'}; want ${want.city ?? '(any city)'}, ${want.countryCode}`,
        );
    }
  } finally {
    await closeExifTool?.();
  }
  console.log(`  ${n} files: ${country} in the right country, ${city} also in the right city`);
  ratio('places_country_match', n ? country / n : null);
  ratio('places_match', n ? city / n : null);
  ratio('places_ms_per_lookup', mean(times));
}
