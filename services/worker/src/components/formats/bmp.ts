/** BMP header: the prebuilt libvips cannot read BMP, so its size comes from here. */
export function bmpSize(buf: Buffer): { width: number; height: number } | null {
  if (buf.length < 26 || buf.toString('latin1', 0, 2) !== 'BM') return null;
  const dibSize = buf.readUInt32LE(14);
  // OS/2 1.x headers (12 bytes) store 16-bit sizes; later ones 32-bit, height negative for top-down rows.
  const width = dibSize === 12 ? buf.readUInt16LE(18) : buf.readInt32LE(18);
  const height = dibSize === 12 ? buf.readUInt16LE(20) : Math.abs(buf.readInt32LE(22));
  return width > 0 && height > 0 ? { width, height } : null;
}
