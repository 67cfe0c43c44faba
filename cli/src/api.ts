/**
 * The calls `trove` makes, typed by the contract: openapi-fetch over `paths` from @trove/openapi (types only, erased
 * from the build, so the package runs without it), so a call or body openapi.yaml does not allow does not compile.
 * Uploads alone go over node:http: the file is streamed into a multipart body whose bytes are counted for the
 * progress bar, never read whole. Every call is retried while its failure is transient (see retry.ts).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { Client } from 'openapi-fetch';
import type * as OpenapiFetch from 'openapi-fetch';
import type { components, paths } from '@trove/openapi';
import { FileBytes } from './file-bytes';
import { sha256File } from './hash';
import { HttpError, parseRetryAfter, withRetry } from './retry';
import type { RetryOptions } from './retry';

export type Album = components['schemas']['Album'];
type Created = components['schemas']['MediaItemCreated'];
type Conflict = components['schemas']['ConflictError'];
type ErrorBody = components['schemas']['Error'];
type ExistRequest = paths['/v1/mediaItems/exist']['post']['requestBody']['content']['application/json'];
type ExistAnswer = paths['/v1/mediaItems/exist']['post']['responses'][200]['content']['application/json'];

/** The answer of a call that was not what it wanted, as an error carrying its status and Retry-After. */
async function failure(response: Response, error: unknown, what: string): Promise<HttpError> {
  const message =
    error && typeof error === 'object' && typeof (error as ErrorBody).message === 'string'
      ? (error as ErrorBody).message
      : response.statusText;
  return new HttpError(
    response.status,
    `${what}: ${response.status} ${message}`,
    parseRetryAfter(response.headers.get('Retry-After')),
  );
}

type Outcome<D> = { data?: D; error?: unknown; response: Response };

/** The data of a call answering 2xx; throws an HttpError otherwise (retried when transient). */
async function ok<D>(call: () => Promise<Outcome<D>>, what: string, retry: RetryOptions): Promise<D> {
  return withRetry(async () => {
    const { data, error, response } = await call();
    if (!response.ok) throw await failure(response, error, what);
    return data as D;
  }, retry);
}

/** What to send: a name, its exact size and its bytes, as often as asked (a file, or an entry of a zip). */
export interface UploadSource {
  name: string;
  size: number;
  open(): Promise<Readable>;
  /** Its SHA-256 (hex), where the source has a faster way than reading `open()`'s stream. */
  sha256?(): Promise<string>;
}

/** A file on disk as an upload source; `size` as the walk found it. */
export const fileSource = (file: string, size: number): UploadSource => ({
  name: path.basename(file),
  size,
  open: async () => new FileBytes(file, size),
  sha256: () => sha256File(file),
});

export interface UploadResult {
  id: string;
  /** The server already had the same content (409): nothing was created. */
  duplicate: boolean;
}

export class TroveApi {
  private contract?: Client<paths>;
  private readonly agent: http.Agent;
  /** The `exist` calls' own connections: never queued behind the uploads holding every socket of `agent`. */
  private readonly callAgent: http.Agent;

  constructor(
    readonly server: string,
    private readonly credentials: { apiKey: string } | { bearer: string },
    private readonly retry: RetryOptions = {},
    concurrency = 4,
  ) {
    const Agent = server.startsWith('https:') ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    this.callAgent = new Agent({ keepAlive: true, maxSockets: 2 });
  }

  /**
   * openapi-fetch over the contract, made on first use: fetch's Request/Response load undici, ~50–100 ms of a run's
   * start, which a plain upload (walk, exist, upload: node:http only) does not pay.
   */
  get client(): Client<paths> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only by the calls that need it
    const { default: createClient } = require('openapi-fetch') as typeof OpenapiFetch;
    return (this.contract ??= createClient<paths>({ baseUrl: this.server, headers: this.authHeaders() }));
  }

  private authHeaders(): Record<string, string> {
    return 'apiKey' in this.credentials
      ? { 'X-Api-Key': this.credentials.apiKey }
      : { Authorization: `Bearer ${this.credentials.bearer}` };
  }

  close(): void {
    this.agent.destroy();
    this.callAgent.destroy();
  }

  /** Which of the digests (≤ 1,000) the library already holds: digest → item id. */
  async existing(sha256: string[]): Promise<Map<string, string>> {
    const body: ExistRequest = { sha256 };
    const { existing } = await withRetry(
      () => this.postJson<ExistAnswer>('/v1/mediaItems/exist', body, 'exist'),
      this.retry,
    );
    return new Map(existing.map((e) => [e.sha256, e.id]));
  }

  /** A JSON POST over node:http (kept-alive connections); a non-2xx answer throws an HttpError. */
  private postJson<T>(route: string, body: unknown, what: string): Promise<T> {
    const payload = Buffer.from(JSON.stringify(body));
    const url = new URL(route, this.server);
    return new Promise<T>((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          agent: this.callAgent,
          headers: { ...this.authHeaders(), 'Content-Type': 'application/json', 'Content-Length': payload.length },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300 && json !== undefined) return resolve(json as T);
            const message = (json as Partial<ErrorBody> | undefined)?.message ?? response.statusMessage ?? '';
            reject(
              new HttpError(
                status,
                `${what}: ${status} ${message}`,
                parseRetryAfter(response.headers['retry-after'] as string | undefined),
              ),
            );
          });
        },
      );
      request.setTimeout(60_000, () =>
        request.destroy(Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' })),
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** Every album of the caller (all pages), hidden ones included. */
  async albums(): Promise<Album[]> {
    const all: Album[] = [];
    for (const hidden of [false, true]) {
      for (let page = 1; ; page++) {
        const batch = await ok(
          () => this.client.GET('/v1/albums', { params: { query: { page, limit: 100, hidden } } }),
          'list albums',
          this.retry,
        );
        all.push(...batch);
        if (batch.length < 100) break;
      }
    }
    return all;
  }

  async createAlbum(name: string): Promise<Album> {
    return ok(() => this.client.POST('/v1/albums', { body: { name } }), `create album ${name}`, this.retry);
  }

  /** Adds items to an album (≤ 1,000 ids; already there stays once). */
  async addToAlbum(albumId: string, mediaItems: string[]): Promise<void> {
    await ok(
      () => this.client.POST('/v1/albums/{id}/mediaItems', { params: { path: { id: albumId } }, body: { mediaItems } }),
      'add to album',
      this.retry,
    );
  }

  /**
   * Uploads one file as `multipart/form-data` (the only part: `file`), streamed from disk; `onBytes` is told of each
   * piece sent, and of a negative count when a try failed and its bytes will be sent again. 409 (the same content is
   * already there) is a result, not an error.
   */
  async upload(source: UploadSource, onBytes: (n: number) => void = () => {}): Promise<UploadResult> {
    return withRetry(async () => {
      let sent = 0;
      try {
        return await this.uploadOnce(source, (n) => {
          sent += n;
          onBytes(n);
        });
      } catch (err) {
        onBytes(-sent);
        throw err;
      }
    }, this.retry);
  }

  private async uploadOnce(file: UploadSource, onBytes: (n: number) => void): Promise<UploadResult> {
    const boundary = `----trove${randomBytes(12).toString('hex')}`;
    // As browsers write a file name: quotes and line breaks percent-encoded, the rest UTF-8 (the gateway reads UTF-8).
    const name = file.name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = file.size;
    const source = await file.open();
    const url = new URL('/v1/mediaItems', this.server);
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent: this.agent,
      headers: {
        ...this.authHeaders(),
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + size + tail.length,
      },
    });
    // No byte for five minutes: the connection is taken for dead (and the upload tried again).
    request.setTimeout(300_000, () =>
      request.destroy(Object.assign(new Error('upload timed out'), { code: 'ETIMEDOUT' })),
    );
    let hasAnswer = false;
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', (response: http.IncomingMessage) => {
        hasAnswer = true;
        resolve(response);
      });
      request.once('error', reject);
    });
    // The head, the file piped in as it is read (no stage in between), the tail. The server may answer before it has
    // read everything (401, 413, 507): its answer is what counts then.
    request.write(head);
    const sending = pipeline(source, request, { end: false })
      .then(() => finished(request.end(tail)))
      .catch((err: unknown) => {
        // The file failed before any answer: the request cannot be completed, so it goes (with `end: false` the
        // pipeline leaves it open, and the server would wait for the promised rest). After an answer, see below.
        if (!hasAnswer) request.destroy(err as Error);
        return err;
      });
    source.on('data', (piece: Buffer) => onBytes(piece.length));
    let response: http.IncomingMessage;
    try {
      response = await answered;
    } finally {
      source.destroy();
    }
    const chunks: Buffer[] = [];
    for await (const piece of response) chunks.push(piece as Buffer);
    await sending;
    // Answered before the whole body was sent: the connection cannot carry another request.
    if (!request.writableFinished) request.destroy();
    const text = Buffer.concat(chunks).toString('utf8');
    const json = (): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        return {};
      }
    };
    if (response.statusCode === 201) return { id: (json() as Created).id, duplicate: false };
    if (response.statusCode === 409) return { id: (json() as Conflict).id, duplicate: true };
    const message = (json() as Partial<ErrorBody>).message ?? response.statusMessage ?? '';
    throw new HttpError(
      response.statusCode ?? 0,
      `${response.statusCode} ${message}`,
      parseRetryAfter(response.headers['retry-after'] as string | undefined),
    );
  }
}
