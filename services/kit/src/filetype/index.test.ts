import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectFileType, SUPPORTED_MIME_TYPES } from './index';

/** The head the gateway reads: the first 4100 bytes. */
const head = (bytes: Uint8Array) => bytes.subarray(0, 4100);

/** An ISO-BMFF `ftyp` box followed by some padding, as the first bytes of MP4/MOV/HEIF/CR3. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const buf = Buffer.alloc(size + 64);
  buf.writeUInt32BE(size, 0);
  buf.write('ftyp', 4, 'latin1');
  buf.write(major, 8, 'latin1');
  compatible.forEach((b, i) => buf.write(b, 16 + 4 * i, 'latin1'));
  buf.writeUInt32BE(64, size);
  buf.write('meta', size + 4, 'latin1');
  return buf;
}

interface Entry {
  tag: number;
  type: 2 | 3 | 4;
  values: number[] | string;
}

/** A little-endian TIFF whose IFD0 holds `entries`, optionally with a different 4-byte magic and extra header bytes. */
function tiff(entries: Entry[], opts: { magic?: number[]; header?: number[] } = {}): Uint8Array {
  const buf = Buffer.alloc(4100);
  Buffer.from(opts.magic ?? [0x49, 0x49, 0x2a, 0x00]).copy(buf, 0);
  const ifdOffset = 16;
  buf.writeUInt32LE(ifdOffset, 4);
  Buffer.from(opts.header ?? []).copy(buf, 8);
  buf.writeUInt16LE(entries.length, ifdOffset);
  let data = ifdOffset + 2 + entries.length * 12 + 4;
  entries.forEach((e, i) => {
    const at = ifdOffset + 2 + i * 12;
    buf.writeUInt16LE(e.tag, at);
    buf.writeUInt16LE(e.type, at + 2);
    if (typeof e.values === 'string') {
      const bytes = Buffer.from(`${e.values}\0`, 'latin1');
      buf.writeUInt32LE(bytes.length, at + 4);
      if (bytes.length <= 4) bytes.copy(buf, at + 8);
      else {
        buf.writeUInt32LE(data, at + 8);
        bytes.copy(buf, data);
        data += bytes.length + (bytes.length % 2);
      }
    } else {
      buf.writeUInt32LE(e.values.length, at + 4);
      if (e.type === 3) e.values.forEach((v, j) => buf.writeUInt16LE(v, at + 8 + 2 * j));
      else buf.writeUInt32LE(e.values[0], at + 8);
    }
  });
  return buf;
}

/** `count` packets of `stride` bytes with the 0x47 sync byte at `syncAt` in each, the rest filler. */
function tsPackets(stride: number, syncAt: number, count: number): Buffer {
  const buf = Buffer.alloc(stride * count, 0xff);
  for (let i = 0; i < count; i++) buf[i * stride + syncAt] = 0x47;
  return buf;
}

/** The IFD0 entries the raws are told apart by (TIFF types: 2 ASCII, 3 SHORT, 4 LONG). */
const make = (name: string): Entry => ({ tag: 0x010f, type: 2, values: name });
/** SubIFDs: where the full-size image of most raws is (the offset is not followed). */
const subIfds = (): Entry => ({ tag: 0x014a, type: 4, values: [4000] });
/** NewSubfileType: 0 the full image, 1 a reduced one. */
const newSubfileType = (type: number): Entry => ({ tag: 0x00fe, type: 4, values: [type] });
const compression = (scheme: number): Entry => ({ tag: 0x0103, type: 3, values: [scheme] });
const photometric = (interpretation: number): Entry => ({ tag: 0x0106, type: 3, values: [interpretation] });
/** A raw's IFD0 as PEF, SRW, 3FR… write it: the sensor data itself, CFA-coded, under the camera's Make. */
const cfaIfd0 = (name: string, scheme = 1): Entry[] => [compression(scheme), photometric(32803), make(name)];
/** A head that starts with `ascii` (latin1) and is padded to a realistic length. */
const magic = (ascii: string) => Buffer.concat([Buffer.from(ascii, 'latin1'), Buffer.alloc(200)]);

describe('detectFileType on hand-built heads', () => {
  const cases: Array<[string, Uint8Array, string | null, string?]> = [
    ['HEIC as an iPhone writes it', ftyp('heic', 'mif1', 'MiHE', 'miaf', 'MiHB', 'heic'), 'image/heic', 'heic'],
    [
      'HEIF: major mif1 decides even with heic compatible (as ExifTool says)',
      ftyp('mif1', 'mif1', 'heic'),
      'image/heif',
      'heif',
    ],
    ['HEIF image sequence: major msf1 with hevc compatible', ftyp('msf1', 'msf1', 'hevc'), 'image/heif', 'heif'],
    ['JPEG XL bare codestream', Buffer.concat([Buffer.from([0xff, 0x0a]), Buffer.alloc(30, 0x11)]), 'image/jxl', 'jxl'],
    [
      'JPEG XL container',
      Buffer.concat([Buffer.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]), Buffer.alloc(30)]),
      'image/jxl',
      'jxl',
    ],
    ['MPEG-TS (188-byte packets)', tsPackets(188, 0, 6), 'video/mp2t', 'ts'],
    ['M2TS (192-byte packets, sync at offset 4)', tsPackets(192, 4, 6), 'video/m2ts', 'm2ts'],
    ['one 0x47 byte is not a TS', Buffer.concat([Buffer.from([0x47]), Buffer.alloc(1000, 0x20)]), null],
    [
      'TS sync broken in the third packet',
      (() => {
        const b = tsPackets(188, 0, 6);
        b[376] = 0;
        return b;
      })(),
      null,
    ],
    ['generic HEIF', ftyp('mif1', 'mif1', 'miaf'), 'image/heif', 'heif'],
    ['AVIF', ftyp('avif', 'avif', 'mif1', 'miaf'), 'image/avif', 'avif'],
    ['AVIF under a mif1 major brand', ftyp('mif1', 'avif', 'mif1'), 'image/avif', 'avif'],
    ['animated AVIF', ftyp('avis', 'avis', 'msf1'), 'image/avif', 'avif'],
    ['CR3', ftyp('crx ', 'crx ', 'isom'), 'image/x-canon-cr3', 'cr3'],
    ['iPhone MOV', ftyp('qt  ', 'qt  '), 'video/quicktime', 'mov'],
    ['MP4 isom', ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), 'video/mp4', 'mp4'],
    ['MP4 mp42', ftyp('mp42', 'isom', 'mp42'), 'video/mp4', 'mp4'],
    ['MP4 with an unknown major brand', ftyp('XYZW', 'isom'), 'video/mp4', 'mp4'],
    ['M4V', ftyp('M4V ', 'M4V ', 'M4A ', 'mp42', 'isom'), 'video/x-m4v', 'm4v'],
    ['3GP', ftyp('3gp5', '3gp5', 'isom'), 'video/3gpp', '3gp'],
    ['M4A audio is not a media item', ftyp('M4A ', 'M4A ', 'mp42', 'isom'), null],
    ['unknown ftyp brands', ftyp('abcd', 'efgh'), null],
    [
      'DNG',
      tiff([newSubfileType(1), make('Canon'), { tag: 0xc612, type: 4, values: [0x0104] }]),
      'image/x-adobe-dng',
      'dng',
    ],
    ['CR2', tiff([make('Canon')], { header: [0x43, 0x52, 0x02, 0x00] }), 'image/x-canon-cr2', 'cr2'],
    ['NEF', tiff([newSubfileType(1), make('NIKON CORPORATION'), subIfds()]), 'image/x-nikon-nef', 'nef'],
    ['ARW', tiff([make('SONY'), subIfds()]), 'image/x-sony-arw', 'arw'],
    [
      'a TIFF an editor wrote from a Nikon photo',
      tiff([newSubfileType(0), make('NIKON CORPORATION')]),
      'image/tiff',
      'tif',
    ],
    ['ORF (IIRO)', tiff([make('OLYMPUS')], { magic: [0x49, 0x49, 0x52, 0x4f] }), 'image/x-olympus-orf', 'orf'],
    ['ORF (MMOR)', Buffer.from('MMOR\0\0\0\x08aaaaaaaaaaaa', 'latin1'), 'image/x-olympus-orf', 'orf'],
    ['RW2', tiff([make('Panasonic')], { magic: [0x49, 0x49, 0x55, 0x00] }), 'image/x-panasonic-rw2', 'rw2'],
    [
      'RWL: the RW2 container with a Leica Make',
      tiff([make('LEICA')], { magic: [0x49, 0x49, 0x55, 0x00] }),
      'image/x-leica-rwl',
      'rwl',
    ],
    ['RAF', magic('FUJIFILMCCD-RAW 0201FF383501'), 'image/x-fujifilm-raf', 'raf'],
    ['MRW', magic('\0MRM\0\0\x01\x18\0PRD'), 'image/x-minolta-mrw', 'mrw'],
    ['CRW', magic('II\x1a\0\0\0HEAPCCDR\0\0\x01\0'), 'image/x-canon-crw', 'crw'],
    ['CRW (big-endian)', magic('MM\0\0\0\x1aHEAPCCDR'), 'image/x-canon-crw', 'crw'],
    ['X3F', magic('FOVb\0\0\x04\0'), 'image/x-sigma-x3f', 'x3f'],
    [
      "IIQ: Phase One's IIII after the TIFF header",
      tiff([], { header: [0x49, 0x49, 0x49, 0x49] }),
      'image/x-raw',
      'iiq',
    ],
    ['PEF', tiff(cfaIfd0('PENTAX Corporation', 65535)), 'image/x-pentax-pef', 'pef'],
    ['PEF (Ricoh-made Pentax)', tiff(cfaIfd0('RICOH IMAGING COMPANY, LTD.')), 'image/x-pentax-pef', 'pef'],
    ['SRW', tiff(cfaIfd0('SAMSUNG', 32769)), 'image/x-samsung-srw', 'srw'],
    ['3FR', tiff(cfaIfd0('Hasselblad')), 'image/x-hasselblad-3fr', '3fr'],
    ['DCR', tiff(cfaIfd0('Kodak', 65000)), 'image/x-kodak-dcr', 'dcr'],
    ['KDC', tiff(cfaIfd0('EASTMAN KODAK COMPANY')), 'image/x-kodak-kdc', 'kdc'],
    ['ERF', tiff(cfaIfd0('SEIKO EPSON CORP.')), 'image/x-epson-erf', 'erf'],
    ['MEF', tiff(cfaIfd0('Mamiya-OP Co.,Ltd.')), 'image/x-mamiya-mef', 'mef'],
    [
      'NRW: a Nikon raw whose IFD0 is a JPEG thumbnail',
      tiff([compression(6), make('NIKON'), subIfds()]),
      'image/x-nikon-nrw',
      'nrw',
    ],
    [
      'a TIFF an editor wrote from a Pentax photo (RGB, no SubIFDs)',
      tiff([compression(5), photometric(2), make('PENTAX')]),
      'image/tiff',
      'tif',
    ],
    ['a CFA TIFF from an unknown maker stays TIFF', tiff(cfaIfd0('Acme Cameras')), 'image/tiff', 'tif'],
    ['MRW look-alike with another letter', magic('\0MRX\0\0\x01\x18'), null],
    [
      'old QuickTime starting with moov',
      Buffer.concat([Buffer.from([0, 0, 0, 0x6c]), Buffer.from('moov'), Buffer.alloc(100)]),
      'video/quicktime',
      'mov',
    ],
    [
      'old QuickTime starting with wide',
      Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('widemdat'), Buffer.alloc(100)]),
      'video/quicktime',
      'mov',
    ],
    ['text starting with BM', Buffer.from('BMW is a car maker, not a bitmap\n'), null],
    ['plain text', Buffer.from('hello, this is not a photo at all\n'), null],
    ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n', 'latin1'), null],
    ['too short', Buffer.from([0xff, 0xd8]), null],
    ['RIFF WAVE audio', Buffer.from('RIFF\x24\0\0\0WAVEfmt \x10\0\0\0', 'latin1'), null],
    [
      'EBML with an unknown DocType',
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x88, 0x42, 0x82, 0x85, ...Buffer.from('other')]),
      null,
    ],
  ];
  // Rows as objects: with positional arguments jest would take a missing 4th one for a `done` callback.
  it.each(cases.map(([name, bytes, mimeType, extension]) => ({ name, bytes, mimeType, extension })))(
    '$name',
    ({ bytes, mimeType, extension }) => {
      const got = detectFileType(head(bytes));
      if (mimeType === null) expect(got).toBeNull();
      else
        expect(got).toEqual({ mimeType, extension, mediaItemType: mimeType.startsWith('video/') ? 'video' : 'photo' });
    },
  );

  it('lists every type it can return', () => {
    for (const [, , mimeType] of cases) if (mimeType) expect(SUPPORTED_MIME_TYPES).toContain(mimeType);
  });
});

/** Real files written by ffmpeg: the heads are what encoders actually produce, not what we think they produce. */
describe('detectFileType on files written by ffmpeg', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'trove-filetype-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const still = ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=1', '-frames:v', '1'];
  const clip = ['-f', 'lavfi', '-i', 'testsrc=duration=0.2:size=64x48:rate=10'];
  const cases: Array<[string, string[], string, 'photo' | 'video']> = [
    ['x.jpg', [...still], 'image/jpeg', 'photo'],
    ['x.png', [...still], 'image/png', 'photo'],
    ['x.gif', [...still], 'image/gif', 'photo'],
    ['x.webp', [...still, '-c:v', 'libwebp'], 'image/webp', 'photo'],
    ['x.tiff', [...still], 'image/tiff', 'photo'],
    ['x.bmp', [...still], 'image/bmp', 'photo'],
    ['x.mp4', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 'video/mp4', 'video'],
    ['x.mov', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 'video/quicktime', 'video'],
    ['x.m4v', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'ipod'], 'video/x-m4v', 'video'],
    ['x.3gp', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 'video/3gpp', 'video'],
    ['x.mkv', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p'], 'video/x-matroska', 'video'],
    ['x.webm', [...clip, '-c:v', 'libvpx-vp9', '-deadline', 'realtime'], 'video/webm', 'video'],
    ['x.avi', [...clip, '-c:v', 'mpeg4'], 'video/x-msvideo', 'video'],
    ['x.jxl', [...still, '-c:v', 'libjxl'], 'image/jxl', 'photo'],
    ['x.ts', [...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'mpegts'], 'video/mp2t', 'video'],
  ];
  it.each(cases)('%s', (name, args, mimeType, mediaItemType) => {
    const file = join(dir, name);
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, file]);
    const got = detectFileType(head(readFileSync(file)));
    expect(got?.mimeType).toBe(mimeType);
    expect(got?.mediaItemType).toBe(mediaItemType);
  });

  it('x.m2ts: the TS from ffmpeg with a 4-byte timestamp before each packet (ffmpeg has no M2TS muxer)', () => {
    const file = join(dir, 'for-m2ts.ts');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...clip,
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mpegts',
      file,
    ]);
    const ts = readFileSync(file);
    const parts: Buffer[] = [];
    for (let i = 0; i + 188 <= ts.length; i += 188) parts.push(Buffer.alloc(4), ts.subarray(i, i + 188));
    expect(detectFileType(head(Buffer.concat(parts)))?.mimeType).toBe('video/m2ts');
  });
});
