import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  paginateListObjectsV2,
  type BucketLocationConstraint,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, pipeline } from 'node:stream';
import { PutMeter } from './meter';
import {
  BlobNotFoundError,
  RangeNotSatisfiableError,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type GetResult,
  type PutOptions,
  type PlacedBlob,
  type PutResult,
  type StoreUsage,
} from './port';
import { assertValidKey, assertValidPrefix, assertValidRange, servedRange } from './validate';

export interface S3Options {
  /** e.g. `http://minio:9000`; omit for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** true for MinIO and most self-hosted servers (`<endpoint>/<bucket>/<key>` URLs). */
  forcePathStyle: boolean;
  /** Key prefix inside the bucket, so several installs can share one; '/' appended when missing. */
  prefix?: string;
  /** Space granted to Trove, reported by `usage()` (S3 has no volume to measure). */
  quotaBytes?: number;
  /**
   * Flexible checksums (CRC32 trailers, aws-chunked bodies) which newer SDKs send by default.
   * Default 'WHEN_REQUIRED': older MinIO releases, s3rver and other S3 look-alikes do not understand
   * them and would store the chunk framing as data or reject the request. Our own sha256 covers
   * integrity end to end anyway. Use 'WHEN_SUPPORTED' against AWS or a current MinIO if wanted.
   */
  checksums?: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED';
  /** Multipart part size (default 8 MiB, min 5 MiB). An upload buffers up to partSize × queueSize. */
  partSize?: number;
  /** Parts uploaded in parallel per put (default 2). */
  queueSize?: number;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const DEFAULT_QUEUE_SIZE = 2;

/** Connects and creates the bucket when it does not exist yet. */
export async function openS3BlobStore(options: S3Options): Promise<S3BlobStore> {
  const store = new S3BlobStore(options);
  try {
    await store.ensureBucket();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(private readonly options: S3Options) {
    const checksums = options.checksums ?? 'WHEN_REQUIRED';
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: checksums,
      responseChecksumValidation: checksums,
    });
    this.bucket = options.bucket;
    const prefix = (options.prefix ?? '').replace(/^\/+/, '');
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  }

  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (httpStatus(err) !== 404) throw err;
    }
    try {
      await this.client.send(
        new CreateBucketCommand({
          Bucket: this.bucket,
          // AWS itself wants the region spelled out outside us-east-1; self-hosted servers do not.
          ...(!this.options.endpoint && this.options.region !== 'us-east-1'
            ? { CreateBucketConfiguration: { LocationConstraint: this.options.region as BucketLocationConstraint } }
            : {}),
        }),
      );
    } catch (err) {
      if (errorName(err) !== 'BucketAlreadyOwnedByYou') throw err; // lost a race with another instance
    }
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<PutResult> {
    let meter: PutMeter;
    try {
      assertValidKey(key);
      meter = new PutMeter(options.maxBytes);
    } catch (err) {
      body.destroy();
      throw err;
    }
    // A failure of the source or of the meter (BlobTooLargeError) is the real cause; the SDK error
    // it provokes (or a failed AbortMultipartUpload) is only a consequence.
    let streamFailure: unknown;
    meter.on('error', (err) => {
      streamFailure ??= err;
    });
    const piped = new Promise<void>((resolve) => pipeline(body, meter, () => resolve()));

    // Upload sends one PutObject for bodies under partSize, else a multipart upload that it aborts
    // on failure, so nothing appears under the key unless the whole body arrived.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.fullKey(key), Body: meter, ContentType: options.contentType },
      partSize: this.options.partSize ?? DEFAULT_PART_SIZE,
      queueSize: this.options.queueSize ?? DEFAULT_QUEUE_SIZE,
    });
    try {
      await upload.done();
    } catch (err) {
      meter.destroy(); // stop reading the caller's stream (pipeline destroys it too)
      await piped;
      throw streamFailure ?? err;
    }
    await piped;
    return meter.result();
  }

  /** S3 answers a put once the object is durable: nothing is left to wait for. */
  async place(key: string, body: Readable, options: PutOptions = {}): Promise<PlacedBlob> {
    return { ...(await this.put(key, body, options)), durable: Promise.resolve() };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    let out: GetObjectCommandOutput;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.fullKey(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
    } catch (err) {
      if (isMissingObject(err)) throw new BlobNotFoundError(key);
      if (httpStatus(err) === 416 || errorName(err) === 'InvalidRange') {
        const info = await this.head(key);
        if (!info) throw new BlobNotFoundError(key);
        throw new RangeNotSatisfiableError(key, info.size);
      }
      throw err;
    }
    const body = out.Body;
    if (!(body instanceof Readable)) throw new Error('S3 GetObject returned a non-stream body');

    const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? '');
    const size = contentRange ? Number(contentRange[3]) : (out.ContentLength ?? 0);
    const info = this.info(key, size, out);
    if (!range) return { body, info };
    let served: { start: number; end: number };
    try {
      // S3 answers 416 for a range starting at or past the end (an empty object included); some
      // look-alikes (s3rver) answer 206 "bytes 0-0/0" instead. Normalise to the contract.
      served = servedRange(key, range, size);
    } catch (err) {
      body.destroy();
      throw err;
    }
    if (contentRange) return { body, info, range: { start: Number(contentRange[1]), end: Number(contentRange[2]) } };
    // No Content-Range: the server ignored the range and answered 200 with the whole object.
    if (served.start !== 0 || served.end !== size - 1) {
      body.destroy();
      throw new Error(`S3 endpoint ignored the Range header for ${key}`);
    }
    return { body, info, range: served };
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.fullKey(key) }));
      return this.info(key, out.ContentLength ?? 0, out);
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.fullKey(key) }));
    } catch (err) {
      if (!isMissingObject(err)) throw err; // S3 answers 204 for absent keys; some look-alikes 404
    }
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    assertValidPrefix(prefix);
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: this.fullKey(prefix) });
    for await (const page of pages) {
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined) continue;
        yield {
          key: item.Key.slice(this.prefix.length),
          size: item.Size ?? 0,
          etag: item.ETag,
          lastModified: item.LastModified,
        };
      }
    }
  }

  /**
   * S3 has no volume to measure, so:
   * - `used`  = sum of the sizes of the objects under the configured prefix (one listing, i.e. one
   *             request per 1000 objects: call it sparingly and cache the answer);
   * - `total` = the configured `quotaBytes`, or `used` when no quota is configured;
   * - `free`  = `total - used` (never below 0), hence 0 without a quota: "unknown", not "full".
   */
  async usage(): Promise<StoreUsage> {
    let used = 0;
    for await (const item of this.list('')) used += item.size;
    const total = this.options.quotaBytes ?? used;
    return { total, used, free: Math.max(0, total - used) };
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private fullKey(key: string): string {
    return this.prefix + key;
  }

  private info(key: string, size: number, out: { ContentType?: string; ETag?: string; LastModified?: Date }): BlobInfo {
    const info: BlobInfo = { key, size, etag: out.ETag, lastModified: out.LastModified };
    if (out.ContentType !== undefined) info.contentType = out.ContentType;
    return info;
  }
}

function errorName(err: unknown): string | undefined {
  return err instanceof Error ? err.name : undefined;
}

function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** NoSuchKey (GET), NotFound (HEAD has no body to name the error); not NoSuchBucket, a misconfiguration. */
function isMissingObject(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NoSuchKey' || name === 'NotFound' || (httpStatus(err) === 404 && name !== 'NoSuchBucket');
}
