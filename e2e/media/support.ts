/**
 * What the media suites need beside the steps of ../support/api: an item's content as bytes with
 * its headers, a streamed multipart upload (no buffering on the client side, or no declared length
 * at all), the blob files of the stack's filesystem store, and a process's resident memory.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { multipartEnvelope } from '@trove/kit/testing';
import type { Api } from '../support/api';

const CONTENT = {
  original: '/v1/mediaItems/{id}/original',
  preview: '/v1/mediaItems/{id}/preview',
  thumbnail: '/v1/mediaItems/{id}/thumbnail',
} as const;

/** One of an item's content variants: status, headers, the bytes of a 2xx answer, the error body of any other. */
export async function content(
  api: Api,
  id: string,
  variant: keyof typeof CONTENT,
  headers: Record<string, string> = {},
) {
  const { data, error, response } = await api.GET(CONTENT[variant], {
    params: { path: { id } },
    headers,
    parseAs: 'arrayBuffer',
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(data ?? new ArrayBuffer(0)),
    body: error as unknown,
  };
}

/** A raw streamed multipart upload through node:http (no buffering on the client side). */
export function streamUpload(
  baseUrl: string,
  token: string,
  content: Readable,
  filename: string,
  opts: { contentLength?: number; onRequest?: (req: ReturnType<typeof httpRequest>) => void } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { head, tail, contentType } = multipartEnvelope(filename, `----trove${randomBytes(8).toString('hex')}`);
  const url = new URL('/v1/mediaItems', baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': contentType };
    if (opts.contentLength !== undefined)
      headers['Content-Length'] = String(head.length + opts.contentLength + tail.length);
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

/** Reads /proc/<pid>/status VmRSS in bytes. */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}
