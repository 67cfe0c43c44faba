/**
 * Receiving an upload: the multipart body is parsed as it arrives (busboy) and the `file` part is
 * streamed straight into the blob store, which hashes it on the way (sha256). The gateway never
 * holds the file in memory (only its first few KiB, to sniff the type) and never writes a copy of
 * its own. The type is decided from those first bytes, before anything is stored.
 */
import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { AppError, BlobTooLargeError, badRequest, insufficientStorage } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { detectFileType } from '@trove/kit/filetype';
import type { DetectedFileType } from '@trove/kit/filetype';

/** Bytes read before deciding the type: every signature detectFileType knows lies within them. */
export const SNIFF_BYTES = 4100;
/** Room for the multipart framing (boundaries, part headers, small fields) around the file's bytes. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
export const FILE_FIELD = 'file';
export interface StoredUpload {
  filename: string;
  type: DetectedFileType;
  size: number;
  sha256: string;
  /** The stored original is readable and its bytes durable; this settles once its name is too (see BlobStore.place). */
  durable: Promise<void>;
}

export interface ReceiveOptions {
  blobs: BlobStore;
  /** Where the file goes. */
  key: string;
  maxBytes: number;
  /**
   * Room left under the owner's storage quota (quota minus usage), when they have one: a file
   * larger than this is refused with 507 instead (declared or streamed), before more is stored.
   */
  roomBytes?: number;
  /** Cut the upload when no byte arrives for this long while the gateway is ready to read. */
  idleTimeoutMs?: number;
}

export const fileTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'file too large');
export const unsupportedFileType = () => badRequest('unsupported file type');
export const QUOTA_EXCEEDED_MESSAGE = 'storage quota exceeded';
export const quotaExceeded = () => insufficientStorage(QUOTA_EXCEEDED_MESSAGE);

/** The client went away before the upload was complete: nobody to answer. */
export class UploadAbortedError extends Error {
  constructor() {
    super('client aborted the upload');
    this.name = 'UploadAbortedError';
  }
}

/** The client stopped sending in the middle of the upload. */
export class UploadStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`upload stalled: no data for ${idleMs / 1000} seconds`);
    this.name = 'UploadStalledError';
  }
}

/**
 * Streams the single `file` part of a multipart/form-data request into `key`. Rejects with a 400
 * AppError (not multipart, no `file` part, another file part, unsupported content), 413 (over
 * `maxBytes`), UploadAbortedError or UploadStalledError (no byte for `idleTimeoutMs`); it settles
 * only once the blob store has finished or given up, so when it rejects the caller can delete
 * `key` knowing no write is still under way. It resolves once the file is in place; its `durable`
 * settles when a power loss could no longer undo that.
 */
export function receiveUpload(req: IncomingMessage, opts: ReceiveOptions): Promise<StoredUpload> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes + MULTIPART_OVERHEAD_BYTES)
    return Promise.reject(fileTooLarge());
  const room = opts.roomBytes;
  // No room at all, or more declared than the room and any framing: refused before a byte is stored.
  if (room !== undefined && (room <= 0 || (Number.isFinite(declared) && declared > room + MULTIPART_OVERHEAD_BYTES)))
    return Promise.reject(quotaExceeded());
  // The stream is cut at the smaller limit, and the answer names the one that was passed. A file
  // that fills the room exactly fits: busboy reports its limit once a file reaches it, so one more
  // (the store's limit the same, so that busboy, not the store, is the one that cuts).
  const quotaFirst = room !== undefined && room < opts.maxBytes;
  const limit = quotaFirst
    ? { maxBytes: room + 1, error: quotaExceeded }
    : { maxBytes: opts.maxBytes, error: fileTooLarge };
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers as IncomingHttpHeaders & { 'content-type': string },
      defParamCharset: 'utf8',
      limits: { files: 1, fileSize: limit.maxBytes, fields: 20, fieldSize: 64 * 1024, parts: 30, headerPairs: 50 },
    });
  } catch {
    return Promise.reject(badRequest('request body must be multipart/form-data with a part named "file"'));
  }

  let stopWatch = () => {};
  const received = new Promise<StoredUpload>((resolve, reject) => {
    let failure: Error | undefined;
    let stored: Promise<StoredUpload> | undefined;
    let body: Readable | undefined;
    let source: Readable | undefined;

    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      req.unpipe(parser);
      // Also while still sniffing the head: no more bytes will come (the request is unpiped), so end the read.
      const stream = body ?? source;
      // The failure is reported by the rejection below; the stream's own 'error' must not go
      // unheard should its consumer have let go already (a file ending exactly at busboy's limit).
      stream?.on('error', () => undefined);
      stream?.destroy(err);
      // Settle only after the store gave up, so the caller's cleanup cannot race the write.
      void (stored ?? Promise.resolve()).catch(() => undefined).then(() => reject(err));
    };

    parser.on('file', (name, stream, info) => {
      if (failure) return stream.resume();
      if (name !== FILE_FIELD || stored) {
        stream.resume();
        return fail(badRequest(`exactly one file part named "${FILE_FIELD}" is expected`));
      }
      source = stream;
      stream.on('limit', () => fail(limit.error()));
      stored = storePart(stream, info.filename, { ...opts, maxBytes: limit.maxBytes }, (b) => (body = b));
      stored.catch((err: unknown) => fail(toUploadError(err, limit.error)));
    });
    parser.on('filesLimit', () => fail(badRequest(`exactly one file part named "${FILE_FIELD}" is expected`)));
    parser.on('partsLimit', () => fail(badRequest('too many parts in the multipart body')));
    parser.on('fieldsLimit', () => fail(badRequest('too many fields in the multipart body')));
    parser.on('error', (err: Error) => fail(badRequest(`malformed multipart body: ${err.message}`)));
    parser.on('close', () => {
      if (failure) return;
      if (!stored) return fail(badRequest(`missing file part "${FILE_FIELD}"`));
      stored.then(resolve, () => undefined);
    });
    req.on('close', () => {
      if (!req.complete) fail(new UploadAbortedError());
    });
    req.pipe(parser);
    const idleMs = opts.idleTimeoutMs;
    if (idleMs) stopWatch = watchIdle(req, idleMs, () => fail(new UploadStalledError(idleMs)));
  });
  return received.finally(() => stopWatch());
}

/**
 * Calls `onIdle` once no data arrived for `idleMs` while the request was flowing. A paused request
 * is the store holding back (backpressure), not the client stalling: its time does not count; nor
 * does the time after the last byte, while the store finishes.
 */
function watchIdle(req: IncomingMessage, idleMs: number, onIdle: () => void): () => void {
  const check = () => {
    if (req.complete) return;
    if (req.readableFlowing === false) timer.refresh();
    else onIdle();
  };
  const timer = setTimeout(check, idleMs);
  timer.unref();
  const onData = () => timer.refresh();
  req.on('data', onData);
  return () => {
    clearTimeout(timer);
    req.off('data', onData);
  };
}

async function storePart(
  stream: Readable,
  filename: string | undefined,
  opts: ReceiveOptions,
  onBody: (b: Readable) => void,
): Promise<StoredUpload> {
  const head = await readHead(stream, SNIFF_BYTES);
  const type = detectFileType(head);
  if (!type) throw unsupportedFileType();
  // The part itself with its head put back (no stage in between). A part that ended meanwhile (it
  // came whole in the head's chunk: the stream ends once that chunk is handed out, paused or not)
  // can take nothing back: its head alone is the body.
  let body: Readable = stream;
  if (stream.readableEnded) body = new PassThrough().end(head);
  else stream.unshift(head);
  onBody(body);
  const placed = await opts.blobs.place(opts.key, body, { contentType: type.mimeType, maxBytes: opts.maxBytes });
  return {
    filename: safeFilename(filename, type.extension),
    type,
    size: placed.size,
    sha256: placed.sha256,
    durable: placed.durable,
  };
}

/** The first `n` bytes of a stream (fewer when it ends first), leaving the stream paused after them. */
function readHead(stream: Readable, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => {
      stream.off('data', onData);
      stream.off('end', done);
      stream.off('error', onError);
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= n) {
        stream.pause();
        done();
      }
    };
    const onError = (err: Error) => {
      stream.off('data', onData);
      stream.off('end', done);
      reject(err);
    };
    stream.on('data', onData);
    stream.on('end', done);
    stream.on('error', onError);
  });
}

function toUploadError(err: unknown, tooLarge: () => AppError): Error {
  if (err instanceof BlobTooLargeError) return tooLarge();
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The name the item keeps: the last path segment (some clients send full paths), without control
 * characters (C0, DEL, C1) or bidirectional controls (a right-to-left override makes
 * `photo<RLO>gpj.exe` display as `photoexe.jpg`), at most 255 characters; `upload.<ext>` when
 * nothing is left.
 */
export function safeFilename(raw: string | undefined, extension: string): string {
  const name = (raw ?? '')
    .split(/[/\\]/)
    .pop()!
    .replace(/[\p{Cc}\p{Bidi_Control}]/gu, '')
    .trim();
  if (!name || name === '.' || name === '..') return `upload.${extension}`;
  return [...name].slice(0, 255).join('');
}
