/**
 * Apple's MakerNote ("Apple iOS" header, then a big-endian IFD whose offsets count from the start
 * of the note). Tag 0x0011 is the ContentIdentifier that pairs the still of a Live Photo with its
 * video (the video carries the same UUID as com.apple.quicktime.content.identifier).
 */

const HEADER = 'Apple iOS\0';
const CONTENT_IDENTIFIER = 0x0011;
const ASCII = 2;

export function appleContentIdentifier(makerNote: unknown): string | null {
  if (!(makerNote instanceof Uint8Array) || makerNote.length < 16) return null;
  const note = Buffer.from(makerNote.buffer, makerNote.byteOffset, makerNote.byteLength);
  if (note.toString('latin1', 0, HEADER.length) !== HEADER || note.toString('latin1', 12, 14) !== 'MM') return null;
  const count = note.readUInt16BE(14);
  for (let i = 0; i < count; i++) {
    const at = 16 + i * 12;
    if (at + 12 > note.length) return null;
    if (note.readUInt16BE(at) !== CONTENT_IDENTIFIER || note.readUInt16BE(at + 2) !== ASCII) continue;
    const length = note.readUInt32BE(at + 4);
    const offset = length <= 4 ? at + 8 : note.readUInt32BE(at + 8);
    if (offset + length > note.length) return null;
    return note.toString('latin1', offset, offset + length).replace(/\0[\s\S]*$/, '').trim() || null;
  }
  return null;
}
