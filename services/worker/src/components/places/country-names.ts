/**
 * English common names of countries from their ISO codes: CLDR's (built into Node with full ICU,
 * the default of official builds), so no table to maintain, except where CLDR's name reads oddly in
 * a caption ("Hong Kong SAR China", "Türkiye").
 */
const OVERRIDES: Readonly<Record<string, string>> = {
  HK: 'Hong Kong',
  MO: 'Macao',
  PS: 'Palestine',
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
  MM: 'Myanmar',
  TR: 'Turkey',
};

/** `(code) => name`; throws when Node lacks the ICU data for English region names. */
export function countryNamer(): (code: string) => string {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  if (names.of('IN') !== 'India') throw new Error('Node.js lacks full ICU data: country names are unavailable');
  return (code) => OVERRIDES[code] ?? (names.of(code) ?? code).replace(/ & /g, ' and ');
}
