/**
 * The calls `trove export` and `trove import` make beyond an upload's, over the same typed client as TroveApi
 * (openapi-fetch, the API key in its headers) and retried alike while their failure is transient.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { components } from '@trove/openapi';
import type { TroveApi } from '../api';
import { HttpError, parseRetryAfter, withRetry } from '../retry';
import type { RetryOptions } from '../retry';

export type MediaItem = components['schemas']['MediaItem'];
export type Album = components['schemas']['Album'];
type ItemUpdate = components['schemas']['MediaItemRequest'];
type AlbumUpdate = components['schemas']['AlbumUpdateRequest'];
type AlbumCreate = components['schemas']['AlbumRequest'];

type Outcome<D> = { data?: D; error?: unknown; response: Response };

async function ok<D>(call: () => Promise<Outcome<D>>, what: string, retry: RetryOptions): Promise<D> {
  return withRetry(async () => {
    const { data, error, response } = await call();
    if (!response.ok) {
      const message = (error as { message?: unknown } | undefined)?.message;
      throw new HttpError(
        response.status,
        `${what}: ${response.status} ${typeof message === 'string' ? message : response.statusText}`,
        parseRetryAfter(response.headers.get('Retry-After')),
      );
    }
    return data as D;
  }, retry);
}

const PAGE = 100;

/** Every page of a paginated list. */
async function all<T>(page: (n: number) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; ; n++) {
    const batch = await page(n);
    out.push(...batch);
    if (batch.length < PAGE) return out;
  }
}

/**
 * Every page of a list that pages by cursor (the library, hidden): each page names the next in
 * `X-Next-Cursor`, so page 10 000 of a million-item library costs what the first one does.
 */
async function allByCursor<T>(
  page: (cursor: string | undefined) => Promise<Outcome<T[]>>,
  what: string,
  retry: RetryOptions,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    let next: string | null = null;
    const batch = await ok(
      async () => {
        const outcome = await page(cursor);
        next = outcome.response.headers.get('X-Next-Cursor');
        return outcome;
      },
      what,
      retry,
    );
    out.push(...batch);
    if (!next) return out;
    cursor = next;
  }
}

/** A feature switched off for the user (403) or not served (404): the list is empty, not an error. */
async function unlessOff<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (err) {
    if (err instanceof HttpError && (err.status === 403 || err.status === 404)) return [];
    throw err;
  }
}

export class LibraryApi {
  private readonly c: TroveApi['client'];

  constructor(
    api: TroveApi,
    private readonly retry: RetryOptions = {},
  ) {
    this.c = api.client;
  }

  account(): Promise<components['schemas']['Account']> {
    return ok(() => this.c.GET('/v1/account'), 'account', this.retry);
  }

  /** The library as lists show it (not hidden, not trashed, no motion parts). */
  visibleItems(): Promise<MediaItem[]> {
    return allByCursor(
      (cursor) => this.c.GET('/v1/mediaItems', { params: { query: { cursor, limit: PAGE } } }),
      'list items',
      this.retry,
    );
  }

  hiddenItems(): Promise<MediaItem[]> {
    return unlessOff(() =>
      allByCursor(
        (cursor) => this.c.GET('/v1/hidden', { params: { query: { cursor, limit: PAGE } } }),
        'list hidden',
        this.retry,
      ),
    );
  }

  async trashCount(): Promise<number> {
    const trash = await unlessOff(() =>
      all((page) =>
        ok(() => this.c.GET('/v1/trash', { params: { query: { page, limit: PAGE } } }), 'list trash', this.retry),
      ),
    );
    return trash.length;
  }

  item(id: string): Promise<MediaItem> {
    return ok(() => this.c.GET('/v1/mediaItems/{id}', { params: { path: { id } } }), `get item ${id}`, this.retry);
  }

  async updateItem(id: string, body: ItemUpdate): Promise<void> {
    await ok(() => this.c.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body }), 'update item', this.retry);
  }

  /** Every album, hidden ones included. */
  async albums(): Promise<Album[]> {
    const lists = await Promise.all(
      [false, true].map((hidden) =>
        unlessOff(() =>
          all((page) =>
            ok(
              () => this.c.GET('/v1/albums', { params: { query: { page, limit: PAGE, hidden } } }),
              'list albums',
              this.retry,
            ),
          ),
        ),
      ),
    );
    return lists.flat();
  }

  albumItems(id: string): Promise<MediaItem[]> {
    return all((page) =>
      ok(
        () => this.c.GET('/v1/albums/{id}/mediaItems', { params: { path: { id }, query: { page, limit: PAGE } } }),
        'list album items',
        this.retry,
      ),
    );
  }

  createAlbum(body: AlbumCreate): Promise<Album> {
    return ok(() => this.c.POST('/v1/albums', { body }), `create album ${body.name}`, this.retry);
  }

  async updateAlbum(id: string, body: AlbumUpdate): Promise<void> {
    await ok(() => this.c.PUT('/v1/albums/{id}', { params: { path: { id } }, body }), 'update album', this.retry);
  }

  /** Named people (visible and hidden ones): person id → name. */
  async people(): Promise<Array<{ id: string; name: string }>> {
    const lists = await Promise.all(
      [false, true].map((hidden) =>
        unlessOff(() =>
          all((page) =>
            ok(
              () => this.c.GET('/v1/explore/people', { params: { query: { page, limit: PAGE, hidden } } }),
              'list people',
              this.retry,
            ),
          ),
        ),
      ),
    );
    return lists.flat().filter((p) => p.name);
  }

  /** The ids of a person's items (hidden and trashed items are left out by the API). */
  async personItems(id: string): Promise<string[]> {
    const items = await unlessOff(() =>
      all((page) =>
        ok(
          () =>
            this.c.GET('/v1/explore/people/{id}/mediaItems', {
              params: { path: { id }, query: { page, limit: PAGE } },
            }),
          'list person items',
          this.retry,
        ),
      ),
    );
    return items.map((i) => i.id);
  }

  /** The named people of one item (for hidden items, which people lists leave out). */
  async itemPeople(id: string): Promise<string[]> {
    const people = await unlessOff(() =>
      ok(() => this.c.GET('/v1/mediaItems/{id}/people', { params: { path: { id } } }), 'item people', this.retry),
    );
    return people.map((p) => p.name).filter(Boolean);
  }

  /** The original's bytes as a stream (its status checked; a transient failure to start is retried). */
  original(id: string): Promise<Readable> {
    return withRetry(async () => {
      const { data, error, response } = await this.c.GET('/v1/mediaItems/{id}/original', {
        params: { path: { id } },
        parseAs: 'stream',
      });
      if (!response.ok || !data) {
        const message = (error as { message?: unknown } | undefined)?.message;
        throw new HttpError(
          response.status,
          `download: ${response.status} ${typeof message === 'string' ? message : response.statusText}`,
          parseRetryAfter(response.headers.get('Retry-After')),
        );
      }
      return Readable.fromWeb(data as unknown as WebReadableStream<Uint8Array>);
    }, this.retry);
  }
}
