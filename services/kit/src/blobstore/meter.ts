import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError } from './port';

/**
 * Pass-through that hashes (sha256) and counts the bytes flowing to storage, in the same pass as
 * the write, and fails with BlobTooLargeError as soon as more than `maxBytes` arrived, so an
 * oversized body is never read (or stored) to its end.
 */
export class PutMeter extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private bytes = 0;
  private digest: string | undefined;

  constructor(private readonly maxBytes?: number) {
    super();
    if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
      throw new RangeError(`invalid maxBytes: ${maxBytes}`);
    }
  }

  override _transform(chunk: Buffer | string, encoding: BufferEncoding, callback: TransformCallback): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    this.bytes += buf.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(buf);
    callback(null, buf);
  }

  override _flush(callback: TransformCallback): void {
    this.digest = this.hash.digest('hex');
    callback();
  }

  /** Size and sha256; only valid once the whole body went through. */
  result(): { size: number; sha256: string } {
    if (this.digest === undefined) throw new Error('PutMeter: body not fully read');
    return { size: this.bytes, sha256: this.digest };
  }
}
