/**
 * Content sniffing of uploads: what a file is, from its first bytes, never from its name or the
 * client's Content-Type. The gateway reads the head of an upload (4100 bytes is plenty: every
 * signature below sits in the first few hundred bytes) and refuses what this returns null for.
 *
 * How each format is recognised:
 * - JPEG `FF D8 FF`; PNG its 8-byte signature; GIF `GIF87a`/`GIF89a`; BMP `BM` + a known DIB
 *   header size; WebP and AVI are RIFF files told apart by the form type (`WEBP` / `AVI `).
 * - ISO base media files (`ftyp` box): the major brand decides, else the first compatible brand we
 *   know: `crx` CR3; `avif`/`avis` AVIF; `heic`/`heix`/`heim`/`heis`/`hevc`/`hevx`/`hevm`/`hevs`
 *   HEIC as major brand; major `mif1`/`msf1`/`mif2`/`miaf` HEIF (even with `heic` compatible, as
 *   ExifTool says; `avif` compatible still makes AVIF); `qt  ` MOV; `M4V ` M4V; `3gp*`/`3g2*`
 *   3GP/3G2; `isom`/`iso2`…/`mp41`/`mp42`/`avc1`/`dash`… MP4. Audio-only brands (`M4A `) are not media items.
 * - JPEG XL: bare codestream `FF 0A`, or the container signature box `00 00 00 0C 'JXL ' 0D 0A 87 0A`.
 * - MPEG-TS (`video/mp2t`): sync byte 0x47 every 188 bytes over several packets; M2TS/AVCHD (`video/m2ts`, as
 *   ExifTool names it): every 192 bytes from byte 4 (a 4-byte timestamp before each packet).
 * - Old QuickTime files without `ftyp`: a first box `moov`, `mdat`, `wide`, `free`, `skip` or `pnot`.
 * - Matroska/WebM: the EBML magic, then the DocType element of the EBML header (`webm` or `matroska`).
 * - Raw formats with their own magic: ORF `IIRO`/`IIRS`/`MMOR`; RW2 `IIU\0` (RWL when IFD0's Make is
 *   Leica); CR2 a TIFF with `CR` at byte 8; IIQ a TIFF with Phase One's `IIII`/`MMMM` at byte 8; RAF
 *   `FUJIFILMCCD-RAW `; MRW `\0MRM`; CRW `II`/`MM` + offset + `HEAPCCDR`; X3F `FOVb`.
 * - Other TIFF-based raws share the plain TIFF signature, so IFD0 is read from the head:
 *   DNGVersion (0xC612) present → DNG; otherwise the Make names the raw format (NIKON NEF, or NRW
 *   when IFD0 holds a JPEG thumbnail as ExifTool decides; SONY ARW; PENTAX/RICOH PEF; SAMSUNG SRW;
 *   Hasselblad 3FR; Kodak DCR, EASTMAN KODAK KDC; SEIKO EPSON ERF; Mamiya MEF; Phase One IIQ), but
 *   only when IFD0 also looks like a raw's (a SubIFDs tag, Sony's SR2Private 0xC634, a
 *   reduced-resolution NewSubfileType, CFA/linear-raw PhotometricInterpretation, or a raw-only
 *   Compression): a TIFF an editor wrote from a camera photo keeps Make but has none of these. A tag
 *   whose value lies beyond the head cannot be read, and the file is then reported as plain TIFF.
 * - MIME types are ExifTool's `MIMEType` for each format (so a raw's type agrees with what ExifTool reports).
 */
export type MediaItemType = 'photo' | 'video';

export interface DetectedFileType {
  mimeType: string;
  mediaItemType: MediaItemType;
  extension: string;
}

const photo = (mimeType: string, extension: string): DetectedFileType => ({
  mimeType,
  mediaItemType: 'photo',
  extension,
});
const video = (mimeType: string, extension: string): DetectedFileType => ({
  mimeType,
  mediaItemType: 'video',
  extension,
});

const JPEG = photo('image/jpeg', 'jpg');
const PNG = photo('image/png', 'png');
const GIF = photo('image/gif', 'gif');
const WEBP = photo('image/webp', 'webp');
const BMP = photo('image/bmp', 'bmp');
const TIFF = photo('image/tiff', 'tif');
const HEIC = photo('image/heic', 'heic');
const HEIF = photo('image/heif', 'heif');
const AVIF = photo('image/avif', 'avif');
const DNG = photo('image/x-adobe-dng', 'dng');
const CR2 = photo('image/x-canon-cr2', 'cr2');
const CR3 = photo('image/x-canon-cr3', 'cr3');
const NEF = photo('image/x-nikon-nef', 'nef');
const ARW = photo('image/x-sony-arw', 'arw');
const ORF = photo('image/x-olympus-orf', 'orf');
const RW2 = photo('image/x-panasonic-rw2', 'rw2');
const RWL = photo('image/x-leica-rwl', 'rwl');
const RAF = photo('image/x-fujifilm-raf', 'raf');
const MRW = photo('image/x-minolta-mrw', 'mrw');
const CRW = photo('image/x-canon-crw', 'crw');
const X3F = photo('image/x-sigma-x3f', 'x3f');
const PEF = photo('image/x-pentax-pef', 'pef');
const NRW = photo('image/x-nikon-nrw', 'nrw');
const SRW = photo('image/x-samsung-srw', 'srw');
const THREE_FR = photo('image/x-hasselblad-3fr', '3fr');
const DCR = photo('image/x-kodak-dcr', 'dcr');
const KDC = photo('image/x-kodak-kdc', 'kdc');
const ERF = photo('image/x-epson-erf', 'erf');
const MEF = photo('image/x-mamiya-mef', 'mef');
// ExifTool's MIME type for Phase One IIQ is the generic one.
const IIQ = photo('image/x-raw', 'iiq');
const MP4 = video('video/mp4', 'mp4');
const M4V = video('video/x-m4v', 'm4v');
const MOV = video('video/quicktime', 'mov');
const THREE_GP = video('video/3gpp', '3gp');
const THREE_G2 = video('video/3gpp2', '3g2');
const MKV = video('video/x-matroska', 'mkv');
const WEBM = video('video/webm', 'webm');
const AVI = video('video/x-msvideo', 'avi');
const JXL = photo('image/jxl', 'jxl');
// 188-byte packets: plain MPEG-TS, IANA's video/MP2T. 192-byte packets (a timestamp before each): BDAV M2TS as
// AVCHD cameras write it, video/m2ts as ExifTool names it.
const MPEG_TS = video('video/mp2t', 'ts');
const M2TS = video('video/m2ts', 'm2ts');

/** Every type this module can return (the `trove` command's list of file extensions is made from it). */
export const SUPPORTED_FILE_TYPES: readonly DetectedFileType[] = [
  JPEG,
  PNG,
  GIF,
  WEBP,
  BMP,
  TIFF,
  HEIC,
  HEIF,
  AVIF,
  JXL,
  DNG,
  CR2,
  CR3,
  NEF,
  ARW,
  ORF,
  RW2,
  RWL,
  RAF,
  MRW,
  CRW,
  X3F,
  PEF,
  NRW,
  SRW,
  THREE_FR,
  DCR,
  KDC,
  ERF,
  MEF,
  IIQ,
  MP4,
  M4V,
  MOV,
  THREE_GP,
  THREE_G2,
  MKV,
  WEBM,
  AVI,
  MPEG_TS,
  M2TS,
];

/** Every MIME type this module can return, e.g. for an upload form's `accept` list. */
export const SUPPORTED_MIME_TYPES: readonly string[] = SUPPORTED_FILE_TYPES.map((t) => t.mimeType);

export function detectFileType(head: Uint8Array): DetectedFileType | null {
  if (head.length < 12) return null;
  if (startsWith(head, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return GIF;
  if (ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 4);
    if (form === 'WEBP') return WEBP;
    if (form === 'AVI ') return AVI;
    return null;
  }
  if (startsWith(head, [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a])) return JXL;
  if (startsWith(head, [0xff, 0x0a])) return JXL;
  if (ascii(head, 4, 4) === 'ftyp') return detectIsoBmff(head);
  if (ascii(head, 0, 16) === 'FUJIFILMCCD-RAW ') return RAF;
  if (ascii(head, 0, 4) === '\0MRM') return MRW;
  if (ascii(head, 0, 4) === 'FOVb') return X3F;
  if ((ascii(head, 0, 2) === 'II' || ascii(head, 0, 2) === 'MM') && ascii(head, 6, 8) === 'HEAPCCDR') return CRW;
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return detectEbml(head);
  const tiffLike = detectTiffFamily(head);
  if (tiffLike) return tiffLike;
  if (isBmp(head)) return BMP;
  if (QUICKTIME_FIRST_BOXES.has(ascii(head, 4, 4)) && plausibleBoxSize(head)) return MOV;
  if (isMpegTs(head, 4, 192)) return M2TS;
  if (isMpegTs(head, 0, 188)) return MPEG_TS;
  return null;
}

/** Sync byte 0x47 at the start of several consecutive packets (188-byte TS, 192-byte M2TS with a 4-byte timestamp first). */
const TS_PACKETS_CHECKED = 5;
function isMpegTs(head: Uint8Array, first: number, stride: number): boolean {
  const packets = Math.min(TS_PACKETS_CHECKED, Math.floor((head.length - first) / stride));
  if (packets < 2) return false;
  for (let i = 0; i < packets; i++) if (head[first + i * stride] !== 0x47) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// ISO base media file format (MP4, MOV, HEIF, AVIF, CR3)

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'mmp4',
  'msnv',
  'ndas',
  'ndsc',
  'ndsh',
  'ndsm',
  'ndsp',
  'ndss',
  'ndxc',
  'ndxh',
  'ndxm',
  'ndxp',
  'ndxs',
  'f4v ',
  'xavc',
  'mp71',
]);
const QUICKTIME_FIRST_BOXES = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function brandType(brand: string): DetectedFileType | null {
  if (brand === 'crx ') return CR3;
  if (brand === 'avif' || brand === 'avis') return AVIF;
  if (HEIC_BRANDS.has(brand)) return HEIC;
  if (brand === 'qt  ') return MOV;
  if (brand === 'M4V ' || brand === 'M4VH' || brand === 'M4VP') return M4V;
  if (brand.startsWith('3gp')) return THREE_GP;
  if (brand.startsWith('3g2')) return THREE_G2;
  if (MP4_BRANDS.has(brand.toLowerCase())) return MP4;
  return null;
}

function detectIsoBmff(head: Uint8Array): DetectedFileType | null {
  const boxSize = u32be(head, 0);
  const major = ascii(head, 8, 4);
  if (major === 'M4A ' || major === 'M4B ' || major === 'M4P ') return null;
  const byMajor = brandType(major);
  if (byMajor) return byMajor;
  // A HEIF-family major brand is HEIF even when heic is among the compatible brands (ExifTool agrees).
  if (major === 'mif1' || major === 'msf1' || major === 'mif2' || major === 'miaf') {
    const end0 = Math.min(boxSize >= 16 ? boxSize : 16, head.length);
    for (let i = 16; i + 4 <= end0; i += 4) {
      const t = brandType(ascii(head, i, 4));
      if (t === AVIF) return AVIF;
    }
    return HEIF;
  }
  // Generic major brands (mif1, msf1, or unknown ones) defer to the compatible brands.
  const end = Math.min(boxSize >= 16 ? boxSize : 16, head.length);
  const compatible: string[] = [];
  for (let i = 16; i + 4 <= end; i += 4) compatible.push(ascii(head, i, 4));
  for (const precise of [CR3, AVIF, HEIC]) {
    if (compatible.some((b) => brandType(b) === precise)) return precise;
  }
  if (major === 'mif1' || major === 'msf1' || compatible.includes('mif1') || compatible.includes('msf1')) return HEIF;
  for (const brand of compatible) {
    const t = brandType(brand);
    if (t) return t;
  }
  return null;
}

function plausibleBoxSize(head: Uint8Array): boolean {
  const size = u32be(head, 0);
  return size === 0 || size === 1 || size >= 8;
}

// ---------------------------------------------------------------------------------------------
// EBML (Matroska / WebM)

function detectEbml(head: Uint8Array): DetectedFileType | null {
  const headerSize = readVint(head, 4);
  if (!headerSize) return null;
  let pos = 4 + headerSize.length;
  const end = Math.min(pos + headerSize.value, head.length);
  while (pos < end) {
    const id = readVint(head, pos, true);
    if (!id) return null;
    const size = readVint(head, pos + id.length);
    if (!size) return null;
    const dataStart = pos + id.length + size.length;
    if (id.value === 0x4282) {
      const docType = ascii(head, dataStart, Math.min(size.value, end - dataStart)).replace(/\0+$/, '');
      if (docType === 'webm') return WEBM;
      if (docType === 'matroska') return MKV;
      return null;
    }
    pos = dataStart + size.value;
  }
  return null;
}

/** An EBML variable-size integer; `keepMarker` for element IDs, which keep their length bit. */
function readVint(buf: Uint8Array, pos: number, keepMarker = false): { value: number; length: number } | null {
  if (pos >= buf.length) return null;
  const first = buf[pos];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || pos + length > buf.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + buf[pos + i];
  return { value, length };
}

// ---------------------------------------------------------------------------------------------
// TIFF and the TIFF-based raws

const TAG_NEW_SUBFILE_TYPE = 0x00fe;
const TAG_COMPRESSION = 0x0103;
const TAG_PHOTOMETRIC = 0x0106;
const TAG_MAKE = 0x010f;
const TAG_SUB_IFDS = 0x014a;
const TAG_DNG_VERSION = 0xc612;
/** Sony's SR2Private pointer; the same number is DNGPrivateData, but DNGs are recognised before it is looked at. */
const TAG_SONY_SR2_PRIVATE = 0xc634;
/** Color filter array and linear raw: sensor data, never what an editor writes for a picture. */
const RAW_PHOTOMETRIC = new Set([32803, 34892]);
/**
 * Compression schemes only raws use (ExifTool's Compression table): Sony ARW 32767, Samsung SRW 32769-32773,
 * Panasonic 34316, Nikon NEF 34713, Kodak 65000, Pentax PEF 65535, among others.
 */
const RAW_COMPRESSIONS = new Set([262, 32767, 32769, 32770, 32771, 32772, 32773, 34316, 34713, 34892, 65000, 65535]);
/** IFD0 Make (upper case, prefix) → the raw format it writes in a TIFF container; the first match wins. */
const RAW_BY_MAKE: Array<[string, DetectedFileType]> = [
  ['NIKON', NEF],
  ['SONY', ARW],
  ['PENTAX', PEF],
  ['RICOH', PEF],
  ['SAMSUNG', SRW],
  ['HASSELBLAD', THREE_FR],
  ['EASTMAN KODAK', KDC],
  ['KODAK', DCR],
  ['SEIKO EPSON', ERF],
  ['MAMIYA', MEF],
  ['PHASE ONE', IIQ],
];
/** Compression 6 (old-style JPEG) in IFD0: ExifTool's sign of an NRW (a JPEG thumbnail where a NEF has its raw). */
const COMPRESSION_OJPEG = 6;

function detectTiffFamily(head: Uint8Array): DetectedFileType | null {
  const magic = ascii(head, 0, 4);
  if (magic === 'IIRO' || magic === 'IIRS' || magic === 'MMOR') return ORF;
  if (startsWith(head, [0x49, 0x49, 0x55, 0x00])) {
    // Leica's RWL is Panasonic's RW2 container; ExifTool tells them apart by Make.
    const make = readIfd0(head, true)?.make ?? '';
    return make.toUpperCase().startsWith('LEICA') ? RWL : RW2;
  }
  const little = startsWith(head, [0x49, 0x49, 0x2a, 0x00]);
  const big = startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]);
  if (!little && !big) return null;
  if (ascii(head, 8, 2) === 'CR' && head[10] === 2) return CR2;
  if (ascii(head, 8, 4) === 'IIII' || ascii(head, 8, 4) === 'MMMM') return IIQ;
  const ifd = readIfd0(head, little);
  if (!ifd) return TIFF;
  if (ifd.tags.has(TAG_DNG_VERSION)) return DNG;
  const make = (ifd.make ?? '').toUpperCase();
  const looksRaw =
    ifd.tags.has(TAG_SUB_IFDS) ||
    ifd.tags.has(TAG_SONY_SR2_PRIVATE) ||
    ifd.newSubfileType === 1 ||
    (ifd.photometric !== null && RAW_PHOTOMETRIC.has(ifd.photometric)) ||
    (ifd.compression !== null && RAW_COMPRESSIONS.has(ifd.compression));
  if (!looksRaw) return TIFF;
  const raw = RAW_BY_MAKE.find(([prefix]) => make.startsWith(prefix))?.[1] ?? TIFF;
  if (raw === NEF && ifd.compression === COMPRESSION_OJPEG) return NRW;
  return raw;
}

interface Ifd0 {
  tags: Set<number>;
  make: string | null;
  newSubfileType: number | null;
  compression: number | null;
  photometric: number | null;
}

function readIfd0(head: Uint8Array, little: boolean): Ifd0 | null {
  const u16 = (o: number) => (little ? head[o] | (head[o + 1] << 8) : (head[o] << 8) | head[o + 1]);
  const u32 = (o: number) => (little ? u32le(head, o) : u32be(head, o));
  const offset = u32(4);
  if (offset < 8 || offset + 2 > head.length) return null;
  const count = u16(offset);
  const tags = new Set<number>();
  let make: string | null = null;
  let newSubfileType: number | null = null;
  let compression: number | null = null;
  let photometric: number | null = null;
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + i * 12;
    if (entry + 12 > head.length) break;
    const tag = u16(entry);
    tags.add(tag);
    const type = u16(entry + 2);
    const n = u32(entry + 4);
    if (tag === TAG_MAKE && type === 2) {
      const at = n <= 4 ? entry + 8 : u32(entry + 8);
      if (at + n <= head.length) make = ascii(head, at, n).replace(/\0.*$/s, '').trim();
    } else if (tag === TAG_NEW_SUBFILE_TYPE) {
      newSubfileType = type === 3 ? u16(entry + 8) : u32(entry + 8);
    } else if (tag === TAG_COMPRESSION) {
      compression = type === 3 ? u16(entry + 8) : u32(entry + 8);
    } else if (tag === TAG_PHOTOMETRIC) {
      photometric = type === 3 ? u16(entry + 8) : u32(entry + 8);
    }
  }
  return { tags, make, newSubfileType, compression, photometric };
}

// ---------------------------------------------------------------------------------------------
// BMP

const DIB_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/** `BM` alone is too weak (it starts plenty of text files), so also require zeroed reserved bytes and a known DIB header. */
function isBmp(head: Uint8Array): boolean {
  if (head.length < 18 || head[0] !== 0x42 || head[1] !== 0x4d) return false;
  const reservedZero = head[6] === 0 && head[7] === 0 && head[8] === 0 && head[9] === 0;
  return reservedZero && DIB_HEADER_SIZES.has(u32le(head, 14));
}

// ---------------------------------------------------------------------------------------------
// byte helpers

function startsWith(buf: Uint8Array, bytes: number[]): boolean {
  return bytes.every((b, i) => buf[i] === b);
}

function ascii(buf: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < buf.length; i++) s += String.fromCharCode(buf[i]);
  return s;
}

function u32be(buf: Uint8Array, o: number): number {
  return ((buf[o] << 24) >>> 0) + (buf[o + 1] << 16) + (buf[o + 2] << 8) + buf[o + 3];
}

function u32le(buf: Uint8Array, o: number): number {
  return ((buf[o + 3] << 24) >>> 0) + (buf[o + 2] << 16) + (buf[o + 1] << 8) + buf[o];
}
