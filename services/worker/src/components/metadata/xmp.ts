/**
 * The handful of XMP properties the library uses, read straight from the packet. A full RDF
 * parser is not needed for them: each is a simple property, written either as an attribute
 * (`GPano:ProjectionType="equirectangular"`) or as an element, possibly holding an `rdf:Alt`
 * (`<exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li>…`). Properties
 * are matched by local name with any prefix, since writers choose prefixes freely.
 */

export function xmpProperty(xmp: string | null, localName: string): string | null {
  if (!xmp) return null;
  const attr = new RegExp(`[\\s<][A-Za-z][\\w.-]*:${localName}\\s*=\\s*(["'])([\\s\\S]*?)\\1`).exec(xmp);
  if (attr) return clean(attr[2]);
  const element = new RegExp(`<([A-Za-z][\\w.-]*:${localName})(?:\\s[^>]*)?>([\\s\\S]*?)</\\1\\s*>`).exec(xmp);
  if (element) return clean(element[2].replace(/<[^>]*>/g, ' '));
  return null;
}

function clean(text: string): string | null {
  const s = text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return s || null;
}

/** XMP booleans are "True"/"False" by the spec; Google's camera writes 1/0. */
export function xmpFlag(xmp: string | null, localName: string): boolean {
  const v = xmpProperty(xmp, localName)?.toLowerCase();
  return v === '1' || v === 'true';
}
