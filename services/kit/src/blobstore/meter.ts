import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './port';

/**
 * Hashes (sha256) and counts the bytes going to storage, in the same pass as the write, and
 * refuses (BlobTooLargeError) as soon as more than `maxBytes` arrived, so an oversized body is
 * never read (or stored) to its end. Fed by the writer itself where the store writes (the file
 * store's GatheredFileWriter: one stream stage less per piece), or by PutMeter in a pipeline.
 */
export class ByteMeter {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;
  private digest: string | undefined;

  constructor(private readonly maxBytes?: number) {
    if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
      throw new RangeError(`invalid maxBytes: ${maxBytes}`);
    }
  }

  /** Counts and hashes a piece; BlobTooLargeError (nothing hashed) once the total passes `maxBytes`. */
  add(piece: Buffer): BlobTooLargeError | undefined {
    this.bytes += piece.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes) return new BlobTooLargeError(this.maxBytes);
    this.hash.update(piece);
    return undefined;
  }

  /** The body is whole: no more pieces. */
  end(): void {
    this.digest ??= this.hash.digest('hex');
  }

  /** Size and sha256; only valid once the whole body went through. */
  result(): { size: number; sha256: string } {
    if (this.digest === undefined) throw new Error('ByteMeter: body not fully read');
    return { size: this.bytes, sha256: this.digest };
  }
}

/** A ByteMeter as a pass-through stage of a pipeline (the S3 store's upload reads from it). */
export class PutMeter extends Transform {
  private readonly meter: ByteMeter;

  constructor(maxBytes?: number) {
    super();
    this.meter = new ByteMeter(maxBytes);
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    const refused = this.meter.add(buf);
    if (refused) callback(refused);
    else callback(null, buf);
  }

  override _flush(callback: TransformCallback): void {
    this.meter.end();
    callback();
  }

  /** Size and sha256; only valid once the whole body went through. */
  result(): { size: number; sha256: string } {
    return this.meter.result();
  }
}
