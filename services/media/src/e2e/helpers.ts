/**
 * Helpers of the media end-to-end suites: an HTTP client for the gateway (JSON and multipart
 * uploads, from memory or streamed), users, and media files made on the spot with sharp and ffmpeg.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { waitFor } from '../../../kit/src/testing/wait';
import type { Stack } from '../../../kit/src/testing/stack';
import { cornerImage, cr3Like, ffmpeg, FIXTURES } from '../../../worker/src/components/testing/media';

export const PASSWORD = 'Blue-Harbour-Lights-42';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  bytes: Buffer;
}

/** The API's MediaItem (the fields the suites look at). */
export interface MediaItem {
  id: string;
  userId: string;
  filename: string;
  description: string | null;
  mimeType: string;
  placeholder: string | null;
  sourceUrl: string;
  previewUrl: string;
  thumbnailUrl: string;
  favourite: boolean;
  hidden: boolean;
  deleted: boolean;
  status: 'UNSPECIFIED' | 'PROCESSING' | 'READY' | 'FAILED';
  failureReason: string | null;
  mediaItemType: 'photo' | 'video';
  mediaItemCategory: string;
  width: number | null;
  height: number | null;
  size: number;
  creationTime: string;
  latitude: number | null;
  longitude: number | null;
  cameraMake: string | null;
  cameraModel: string | null;
  focalLength: string | null;
  apertureFNumber: string | null;
  isoEquivalent: string | null;
  exposureTime: string | null;
  fps: string | null;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  as(token: string): Client {
    return new Client(this.baseUrl, token);
  }

  async call<T = Record<string, unknown>>(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; noAuth?: boolean } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.token && !opts.noAuth) headers.Authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const url = path.startsWith('http') ? path : this.baseUrl + path;
    const res = await fetch(url, { method: method.toUpperCase(), headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    let parsed: unknown = undefined;
    if (bytes.length && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(bytes.toString('utf8'));
    return { status: res.status, body: parsed as T, headers: res.headers, bytes };
  }

  /** A multipart upload of bytes in memory under `filename`. */
  async upload(data: Buffer, filename: string): Promise<ApiResponse<{ id: string; message?: string }>> {
    const form = new FormData();
    form.append('file', new Blob([data]), filename);
    const res = await fetch(`${this.baseUrl}/v1/mediaItems`, { method: 'POST', headers: { Authorization: `Bearer ${this.token}` }, body: form });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, body: bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined, headers: res.headers, bytes } as ApiResponse<{ id: string; message?: string }>;
  }

  async item(id: string): Promise<MediaItem> {
    const res = await this.call<MediaItem>('get', `/v1/mediaItems/${id}`);
    if (res.status !== 200) throw new Error(`GET ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Waits until processing has finished (READY or FAILED). */
  async settled(id: string, timeoutMs = 60_000): Promise<MediaItem> {
    return waitFor(
      async () => {
        const item = await this.item(id);
        return item.status === 'READY' || item.status === 'FAILED' ? item : undefined;
      },
      { timeoutMs, intervalMs: 200, what: `item ${id} to finish processing` },
    );
  }
}

/** A raw streamed multipart upload through node:http (no buffering on the client side). */
export function streamUpload(
  baseUrl: string,
  token: string,
  content: Readable,
  filename: string,
  opts: { contentLength?: number; onRequest?: (req: ReturnType<typeof httpRequest>) => void } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = `----trove${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL('/v1/mediaItems', baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
    if (opts.contentLength !== undefined) headers['Content-Length'] = String(head.length + opts.contentLength + tail.length);
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    opts.onRequest?.(req);
    req.write(head);
    content.on('error', reject);
    content.on('end', () => req.end(tail));
    content.pipe(req, { end: false });
  });
}

let seq = 0;
export async function newUser(stack: Stack, client: Client): Promise<{ id: string; username: string; token: string }> {
  const username = `u${Date.now().toString(36)}${seq++}`;
  const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
  const created = await fetch(`${client.baseUrl}/v1/users`, { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Media Tester', username, password: PASSWORD }) });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const login = await fetch(`${client.baseUrl}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${(seq % 250) + 1}` }, body: JSON.stringify({ username, password: PASSWORD }) });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { id, username, token: accessToken };
}

export async function deleteUser(stack: Stack, id: string): Promise<number> {
  const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
  return (await fetch(`${stack.gatewayUrl}/v1/users/${id}`, { method: 'DELETE', headers: { Authorization: admin } })).status;
}

/** The blob keys stored for one user (filesystem blob store of the stack's data dir). */
export async function blobKeysOf(dataDir: string, userId: string): Promise<string[]> {
  const root = join(dataDir, 'blobs', 'media', userId);
  const out: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (!e.name.endsWith('.meta.json')) out.push(`${prefix}${e.name}`);
    }
  };
  await walk(root, '');
  return out.sort();
}

/** Files of in-flight (or abandoned) blob writes. */
export async function blobTempFiles(dataDir: string): Promise<string[]> {
  return readdir(join(dataDir, 'blobs', '.tmp')).catch(() => []);
}

// ---- media made on the spot ---------------------------------------------------------------------

/** A JPEG with camera EXIF and a GPS position (Amsterdam, 52.3702 N 4.8952 E), taken 24 June 2019 18:15:12 +02:00. */
export async function cameraJpeg(): Promise<Buffer> {
  return (await cornerImage(1200, 800))
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'TroveCam', Model: 'T1 Mark II' },
      IFD2: { DateTimeOriginal: '2019:06:24 18:15:12', OffsetTimeOriginal: '+02:00', FNumber: '28/10', ExposureTime: '1/250', ISOSpeedRatings: '200', FocalLength: '50/1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 1272/100', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 4272/100' },
    })
    .toBuffer();
}

/** A phone-sized PNG with nothing in it but pixels: with a screenshot-like name it is a screenshot. */
export async function screenshotPng(): Promise<Buffer> {
  return sharp({ create: { width: 390, height: 844, channels: 4, background: { r: 240, g: 240, b: 250, alpha: 1 } } })
    .composite([{ input: await sharp({ create: { width: 390, height: 60, channels: 3, background: 'navy' } }).png().toBuffer(), left: 0, top: 0 }])
    .png()
    .toBuffer();
}

export const heicFixture = () => readFile(join(FIXTURES, 'IMG_0543.HEIC'));

/**
 * A CR3-like raw (Canon EOS R5 metadata, 8192x5464) whose only decodable picture is its embedded
 * JPEG preview. (The DNG-like of the worker's test helpers writes IFD0 at the end of the file,
 * beyond the bytes an upload is sniffed from, so it would be taken for a plain TIFF; real DNGs
 * start with IFD0.)
 */
export async function rawWithPreview(): Promise<Buffer> {
  const preview = await (await cornerImage(600, 400)).jpeg().toBuffer();
  return cr3Like(preview, 1);
}

/** A small distinct JPEG (noise, so every one differs and takes real work to process). */
export async function noiseJpeg(width = 1600, height = 1200): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** An ffmpeg-made clip: `mp4` is web-playable H.264/AAC, `mov` is MPEG-4 Part 2 video that needs a transcode. */
export async function clip(dir: string, kind: 'mp4' | 'mov', creationTime: string): Promise<Buffer> {
  const out = join(dir, `${randomUUID()}.${kind}`);
  const source = ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-shortest'];
  const codec = kind === 'mp4' ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'] : ['-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'pcm_s16le'];
  await ffmpeg([...source, ...codec, '-metadata', `creation_time=${creationTime}`, out]);
  return readFile(out);
}

/** Reads /proc/<pid>/status VmRSS in bytes. */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}
