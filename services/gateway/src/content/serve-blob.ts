/**
 * Serving bytes from the blob store over HTTP: single byte ranges (206, so video can seek),
 * conditional requests (ETag / If-None-Match → 304, If-Range), caching headers. Streams only.
 */
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { BlobNotFoundError, RangeNotSatisfiableError, notFound } from '@trove/kit';
import type { BlobStore, Logger } from '@trove/kit';

export type ByteRangeRequest = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * A `Range` header against a body of `size` bytes: the inclusive range to serve, 'unsatisfiable'
 * (416), or null to serve the whole body (no header, another unit, several ranges or a malformed
 * one, which RFC 9110 lets a server ignore).
 */
export function parseRange(header: string | undefined, size: number): ByteRangeRequest {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? Number.MAX_SAFE_INTEGER : Number(m[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** If-None-Match against an ETag (weak comparison, as RFC 9110 asks for this header). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === bare(etag));
}

export interface ServeOptions {
  key: string;
  /** Used when the blob has no content type of its own. */
  contentType: string;
  cacheControl: string;
  /** For originals: the name a download is saved under. */
  filename?: string;
  /** The 404 message when the blob is missing (default: `mediaitem not found`). */
  notFoundMessage?: string;
}

/** Streams a blob as the answer to a GET, honouring Range, If-Range and If-None-Match. */
export async function serveBlob(
  req: Pick<Request, 'get'>,
  res: Response,
  blobs: BlobStore,
  log: Logger,
  opts: ServeOptions,
): Promise<void> {
  const info = await blobs.head(opts.key);
  if (!info) throw notFound(opts.notFoundMessage ?? 'mediaitem not found');
  const etag = info.etag ?? `"${info.size.toString(16)}"`;
  res.set({
    ETag: etag,
    'Cache-Control': opts.cacheControl,
    'Accept-Ranges': 'bytes',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (etagMatches(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  const ifRange = req.get('if-range');
  const range = ifRange && ifRange.trim() !== etag ? null : parseRange(req.get('range'), info.size);
  if (range === 'unsatisfiable') {
    res.status(416).set('Content-Range', `bytes */${info.size}`).json({ message: 'range not satisfiable' });
    return;
  }
  let got;
  try {
    got = await blobs.get(opts.key, range ?? undefined);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw notFound(opts.notFoundMessage ?? 'mediaitem not found');
    if (err instanceof RangeNotSatisfiableError) {
      res.status(416).set('Content-Range', `bytes */${err.size}`).json({ message: 'range not satisfiable' });
      return;
    }
    throw err;
  }
  const { body, info: current } = got;
  const served = got.range;
  res.status(served ? 206 : 200).set({
    'Content-Type': current.contentType ?? info.contentType ?? opts.contentType,
    'Content-Length': String(served ? served.end - served.start + 1 : current.size),
    ETag: current.etag ?? etag,
  });
  if (served) res.set('Content-Range', `bytes ${served.start}-${served.end}/${current.size}`);
  if (current.lastModified) res.set('Last-Modified', current.lastModified.toUTCString());
  if (opts.filename) res.set('Content-Disposition', contentDisposition(opts.filename));
  try {
    await pipeline(body, res);
  } catch (err) {
    // The client went away mid-download (seeking video does that all the time): nothing to answer.
    log.debug({ err, key: opts.key }, 'content stream ended early');
  }
}

/** `inline` with an ASCII fallback name and the exact name in RFC 5987 encoding. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
