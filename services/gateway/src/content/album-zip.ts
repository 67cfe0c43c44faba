import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { Response } from 'express';
import { ZipFile } from 'yazl';
import type { BlobStore, Logger } from '@trove/kit';

/** One original to put in the archive: its blob and the name it gets there (made unique by the archive). */
export interface ZipEntrySource {
  key: string;
  name: string;
  mtime?: Date;
}

/** Entries queued in the archive ahead of the one being read: a page's worth, never the album. */
const MAX_QUEUED = 200;

/**
 * Unique entry names, compared without case (as the file systems archives are unpacked on do):
 * `IMG_1.jpg`, then `IMG_1 (2).jpg`, `IMG_1 (3).jpg`. A name is reduced to its last path segment
 * and loses control characters, so an entry can never point outside the folder it is unpacked in.
 */
export class UniqueNames {
  private readonly taken = new Set<string>();

  take(wanted: string): string {
    const last = wanted.split(/[\\/]/).pop() ?? '';
    const base = [...last]
      .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
      .join('')
      .trim();
    const safe = base === '' || base === '.' || base === '..' ? 'file' : base;
    const ext = extname(safe);
    const stem = ext ? safe.slice(0, -ext.length) : safe;
    let name = safe;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${ext}`;
    this.taken.add(name.toLowerCase());
    return name;
  }
}

/**
 * `attachment` naming the file twice (RFC 6266): `filename*` in UTF-8 (RFC 8187) for every client
 * of this century, and `filename` with anything outside printable ASCII replaced, for the rest.
 */
export function attachment(filename: string): string {
  const fallback = [...filename].map((c) => (/^[\x20-\x7e]$/.test(c) && c !== '"' && c !== '\\' ? c : '_')).join('');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Streams a ZIP of the originals `pages` yields to `res` (yazl: stored, no compression; ZIP64 where
 * sizes need it). Each original is opened only when the archive reaches it and piped with the
 * response's backpressure; at most MAX_QUEUED entries wait ahead, so neither the album nor its bytes
 * are ever held. A client that goes away stops it: the blob being read is destroyed and no more
 * pages are asked for. Headers go out at once; a failure after that cuts the stream (logged).
 */
export async function streamZip(
  res: Response,
  deps: { blobs: BlobStore; log: Logger },
  filename: string,
  pages: AsyncIterable<ZipEntrySource[]>,
): Promise<void> {
  const zip = new ZipFile();
  const names = new UniqueNames();
  let closed = false;
  let reading: Readable | undefined;
  let queued = 0;
  let wake: (() => void) | undefined;
  const stop = () => {
    closed = true;
    reading?.destroy();
    wake?.();
  };
  res.on('close', () => {
    if (!res.writableFinished) stop();
  });
  zip.on('error', (err: Error) => {
    deps.log.warn({ err }, 'ZIP cut short');
    stop();
    res.destroy(err);
  });

  res.status(200);
  res.set('Content-Disposition', attachment(filename));
  res.set({ 'Content-Type': 'application/zip', 'Cache-Control': 'no-store' });
  res.flushHeaders();
  zip.outputStream.pipe(res);

  try {
    for await (const page of pages) {
      if (closed) return;
      for (const entry of page) {
        queued += 1;
        zip.addReadStreamLazy(names.take(entry.name), { compress: false, mtime: entry.mtime ?? new Date() }, (cb) => {
          queued -= 1;
          wake?.();
          // yazl takes the error and emits it; the stream argument is then unused.
          const fail = (err: Error) => cb(err, undefined as never);
          if (closed) return fail(new Error('client gone'));
          deps.blobs.get(entry.key).then(
            ({ body }) => {
              reading = body;
              cb(null, body);
            },
            (err: Error) => fail(err),
          );
        });
      }
      // Backpressure on the listing: the next page is asked for only once the archive caught up.
      while (queued > MAX_QUEUED && !closed) await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (err) {
    deps.log.warn({ err }, 'ZIP listing failed');
    stop();
    res.destroy(err as Error);
    return;
  }
  if (!closed) zip.end();
}
