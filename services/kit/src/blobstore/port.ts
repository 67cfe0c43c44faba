import type { Readable } from 'node:stream';

/**
 * The blob-store port: originals and derivatives (previews, thumbnails, transcodes).
 * Adapters: S3 (MinIO in the cluster, any S3-compatible endpoint) and the local filesystem
 * (embedded default). Keys are '/'-separated relative paths such as `users/<uid>/<id>/original`.
 */

export interface BlobInfo {
  key: string;
  size: number;
  contentType?: string;
  /** Opaque change tag (S3 ETag or a value derived from size and mtime for files). */
  etag?: string;
  lastModified?: Date;
}

export interface PutResult {
  size: number;
  /** Lower-case hex sha256 of the bytes, computed while they streamed in. */
  sha256: string;
}

/** What `place` answers: the put's result, and when the object's name is durable too. */
export interface PlacedBlob extends PutResult {
  /**
   * Settles once the object would survive a power loss (on the filesystem: its directory entries are
   * fsynced; on S3: already). Rejects when that fails; the object is then still readable until deleted.
   */
  durable: Promise<void>;
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive; omitted means to the end. */
  end?: number;
}

export interface GetResult {
  /** The caller must consume or destroy it (an S3 body holds a pooled socket until then). */
  body: Readable;
  /** Metadata of the whole object: `size` is the object's size, not the length of `body`. */
  info: BlobInfo;
  /** The byte range actually served (inclusive), when one was asked for. */
  range?: { start: number; end: number };
}

export interface PutOptions {
  contentType?: string;
  /** Abort the write (and leave nothing behind) once more than this many bytes arrived. */
  maxBytes?: number;
}

export interface StoreUsage {
  /** Bytes of the volume (filesystem) or the configured quota (S3; see the adapter). */
  total: number;
  free: number;
  used: number;
}

export interface BlobStore {
  readonly kind: 's3' | 'fs';
  /** Streams `body` into `key`. The object appears under its key only once fully written. */
  put(key: string, body: Readable, options?: PutOptions): Promise<PutResult>;
  /**
   * Like `put`, but resolves as soon as the object is readable under its key with its bytes durable,
   * while making its name durable may still be under way (`durable`): a caller can do its next step
   * (tell another service about the object) meanwhile instead of after it. Every reader on any
   * process sees the whole object from then on; only a power loss before `durable` could lose it.
   */
  place(key: string, body: Readable, options?: PutOptions): Promise<PlacedBlob>;
  /** Throws BlobNotFoundError when absent; RangeNotSatisfiableError for a range past the end. */
  get(key: string, range?: ByteRange): Promise<GetResult>;
  /** Metadata, or null when absent. */
  head(key: string): Promise<BlobInfo | null>;
  /** Idempotent: deleting an absent key is not an error. */
  delete(key: string): Promise<void>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): AsyncIterable<BlobInfo>;
  usage(): Promise<StoreUsage>;
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob not found: ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(
    readonly key: string,
    readonly size: number,
  ) {
    super(`range not satisfiable for ${key} (size ${size})`);
    this.name = 'RangeNotSatisfiableError';
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** The key (or list prefix) breaks the key rules (see `assertValidKey`); a caller bug, not a storage error. */
export class InvalidBlobKeyError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidBlobKeyError';
  }
}
