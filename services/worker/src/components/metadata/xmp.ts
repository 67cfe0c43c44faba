/**
 * The handful of XMP properties the library uses, read from the packet in one linear pass. Each is
 * a simple property, written either as an attribute (`GPano:ProjectionType="equirectangular"`) or
 * as an element, possibly holding an `rdf:Alt`
 * (`<exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li>…`). Properties
 * are matched by local name with any prefix, since writers choose prefixes freely.
 *
 * The packet comes from an uploaded file, so the reader must stay linear whatever it holds: it
 * walks the tags once with indexOf (no backtracking patterns), matches closing tags through a stack
 * per name, and looks only at the first XMP_MAX_CHARS characters (real packets are a few KiB;
 * camera extensions put their megabytes in separate extended-XMP blocks).
 */

export const XMP_MAX_CHARS = 256 * 1024;

interface Packet {
  /** Local name → raw value of the first prefixed attribute with that name. */
  attributes: Map<string, string>;
  /** Local name → the text tokens of the first closed element with that name. */
  elements: Map<string, { start: number; end: number }>;
  /** Text between tags, decoded, in document order. */
  texts: string[];
}

export function xmpProperty(xmp: string | null, localName: string): string | null {
  if (!xmp) return null;
  const packet = parsed(xmp);
  const attribute = packet.attributes.get(localName);
  if (attribute !== undefined) return collapse(decodeEntities(attribute));
  const element = packet.elements.get(localName);
  return element ? collapse(packet.texts.slice(element.start, element.end).join(' ')) : null;
}

/** XMP booleans are "True"/"False" by the spec; Google's camera writes 1/0. */
export function xmpFlag(xmp: string | null, localName: string): boolean {
  const v = xmpProperty(xmp, localName)?.toLowerCase();
  return v === '1' || v === 'true';
}

// The callers ask for several properties of the same packet in a row: parse it once.
let last: { xmp: string; packet: Packet } | null = null;

function parsed(xmp: string): Packet {
  if (last?.xmp !== xmp) last = { xmp, packet: parse(xmp.length > XMP_MAX_CHARS ? xmp.slice(0, XMP_MAX_CHARS) : xmp) };
  return last.packet;
}

/** Anything unterminated (a tag, an attribute value, a comment) ends the reading: what came before still counts. */
function parse(s: string): Packet {
  const texts: string[] = [];
  const attributes = new Map<string, string>();
  const opened: Array<{ localName: string; start: number; end: number }> = [];
  const openByName = new Map<string, number[]>();
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      texts.push(decodeEntities(s.slice(i)));
      break;
    }
    if (lt > i) texts.push(decodeEntities(s.slice(i, lt)));
    const special = skipSpecial(s, lt, texts);
    if (special !== null) {
      if (special < 0) break;
      i = special;
      continue;
    }
    const gt = tagEnd(s, lt + 1);
    if (gt < 0) break;
    const body = s.slice(lt + 1, gt);
    i = gt + 1;
    if (body.startsWith('/')) {
      // A closing tag ends the latest open element of its name; one without an opening is ignored.
      const index = openByName.get(body.slice(1).trim())?.pop();
      if (index !== undefined) opened[index].end = texts.length;
      continue;
    }
    const name = /^[^\s/]*/.exec(body)![0];
    readAttributes(body, name.length, attributes);
    const localName = prefixedLocalName(name);
    if (localName && !body.endsWith('/')) {
      const stack = openByName.get(name) ?? [];
      stack.push(opened.length);
      openByName.set(name, stack);
      opened.push({ localName, start: texts.length, end: -1 });
    }
  }
  const elements = new Map<string, { start: number; end: number }>();
  for (const e of opened) if (e.end >= 0 && !elements.has(e.localName)) elements.set(e.localName, e);
  return { attributes, elements, texts };
}

/** Comments and processing instructions are skipped, CDATA is text as is. Returns where to go on, -1 when unterminated, null for an ordinary tag. */
function skipSpecial(s: string, lt: number, texts: string[]): number | null {
  if (s.startsWith('<!--', lt)) return after(s, '-->', lt + 4);
  if (s.startsWith('<?', lt)) return after(s, '?>', lt + 2);
  if (s.startsWith('<![CDATA[', lt)) {
    const end = s.indexOf(']]>', lt + 9);
    if (end < 0) return -1;
    texts.push(s.slice(lt + 9, end));
    return end + 3;
  }
  return null;
}

function after(s: string, terminator: string, from: number): number {
  const at = s.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
}

/** The `>` that ends the tag starting at `from`, skipping quoted attribute values (which may hold `>`). */
function tagEnd(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    const c = s[j];
    if (c === '>') return j;
    if (c === '"' || c === "'") {
      j = s.indexOf(c, j + 1);
      if (j < 0) return -1;
    }
  }
  return -1;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** `name="value"` pairs of a tag body; unquoted values and stray words are stepped over. */
function readAttributes(body: string, from: number, into: Map<string, string>): void {
  const n = body.length;
  let j = from;
  while (j < n) {
    while (j < n && isSpace(body[j])) j++;
    const nameStart = j;
    while (j < n && !isSpace(body[j]) && body[j] !== '=' && body[j] !== '/') j++;
    const name = body.slice(nameStart, j);
    while (j < n && isSpace(body[j])) j++;
    if (body[j] !== '=') {
      if (j === nameStart) j++;
      continue;
    }
    j++;
    while (j < n && isSpace(body[j])) j++;
    const quote = body[j];
    if (quote !== '"' && quote !== "'") {
      while (j < n && !isSpace(body[j])) j++;
      continue;
    }
    const end = body.indexOf(quote, j + 1);
    if (end < 0) return;
    const localName = name.startsWith('xmlns:') ? null : prefixedLocalName(name);
    if (localName && !into.has(localName)) into.set(localName, body.slice(j + 1, end));
    j = end + 1;
  }
}

const PREFIXED_NAME = /^[A-Za-z_][\w.-]*:([A-Za-z_][\w.-]*)$/;

function prefixedLocalName(name: string): string | null {
  return PREFIXED_NAME.exec(name)?.[1] ?? null;
}

const ENTITY = /&(lt|gt|quot|apos|amp|#x[0-9a-fA-F]{1,6}|#\d{1,7});/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    if (!name.startsWith('#')) return NAMED[name];
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function collapse(text: string): string | null {
  return text.replace(/\s+/g, ' ').trim() || null;
}
