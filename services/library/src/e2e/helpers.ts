/**
 * Helpers of the library end-to-end suite: users with tokens, real uploads (small PNGs made on the
 * spot, every one different) and waiting for their processing, on a stack started by `startStack`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Stack } from '../../../kit/src/testing/stack';
import { waitFor } from '../../../kit/src/testing/wait';

export const PASSWORD = 'Blue-Harbour-Lights-42';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  basic?: { username: string; password: string };
  bearer?: string;
}

/**
 * JSON calls to the gateway, from a fresh client address each time (the test stack's gateway
 * trusts X-Forwarded-For from loopback), so the per-address login limit never bites the suite.
 */
export class Api {
  constructor(readonly baseUrl: string) {}

  async call<T = Record<string, unknown>>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'X-Forwarded-For': `198.51.100.${randomInt(1, 255)}` };
    if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${opts.basic.username}:${opts.basic.password}`).toString('base64')}`;
    if (opts.bearer) headers.Authorization = `Bearer ${opts.bearer}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method: method.toUpperCase(), headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
}

/** The API's Album. */
export interface Album {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  shared: boolean;
  hidden: boolean;
  coverMediaItemId: string | null;
  coverMediaItem: MediaItem | null;
  mediaItemsCount: number;
  createdAt: string;
  updatedAt: string;
}

/** The fields of the API's MediaItem the suite looks at. */
export interface MediaItem {
  id: string;
  userId: string;
  filename: string;
  mimeType: string;
  sourceUrl: string;
  previewUrl: string;
  thumbnailUrl: string;
  hidden: boolean;
  deleted: boolean;
  status: 'UNSPECIFIED' | 'PROCESSING' | 'READY' | 'FAILED';
}

export interface TestUser {
  id: string;
  username: string;
  token: string;
}

let seq = 0;

export async function newUser(stack: Stack, api: Api): Promise<TestUser> {
  const username = `lib${Date.now().toString(36)}${seq++}`;
  const basic = { username: stack.adminUsername, password: stack.adminPassword };
  const created = await api.call<{ id: string }>('post', '/v1/users', { basic, body: { name: 'Album Tester', username, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await api.call<{ accessToken: string }>('post', '/v1/auth/login', { body: { username, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: created.body.id, username, token: login.body.accessToken };
}

// ---- a PNG encoder small enough to need no image library -----------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGB PNG of random pixels: every call makes different content (no duplicate-upload 409). */
export function randomPng(width = 96, height = 64): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.concat([Buffer.from([0]), randomBytes(width * 3)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads one PNG through the gateway (multipart) and waits until the worker has processed it. */
export async function uploadPhoto(api: Api, token: string, name = 'photo.png'): Promise<MediaItem> {
  const form = new FormData();
  form.append('file', new Blob([randomPng()], { type: 'image/png' }), name);
  const res = await fetch(`${api.baseUrl}/v1/mediaItems`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${text}`);
  const { id } = JSON.parse(text) as { id: string };
  return waitFor(
    async () => {
      const got = await api.call<MediaItem>('get', `/v1/mediaItems/${id}`, { bearer: token });
      if (got.status !== 200) throw new Error(`GET item: ${got.status} ${JSON.stringify(got.body)}`);
      if (got.body.status === 'FAILED') throw new Error(`processing failed: ${JSON.stringify(got.body)}`);
      return got.body.status === 'READY' ? got.body : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `item ${id} to be processed` },
  );
}
