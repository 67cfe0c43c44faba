import type {
  AlbumV1,
  CreateAlbumRequestV1,
  ListAlbumsRequestV1,
  MediaItemV1,
  UpdateAlbumRequestV1,
} from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { MediaDirectory } from '../ports/media';
import type { AlbumChanges, AlbumDoc, AlbumsRepository } from './repository';

export const albumNotFound = () => notFound('album not found');
export const mediaItemNotFound = () => notFound('mediaitem not found');
export const sharedLinkNotFound = () => notFound('shared link not found');

/**
 * How many of an album's first items are asked for when composing its cover: the first one may
 * already be in the trash (or purged) while the media event is still on its way.
 */
const COVER_CANDIDATES = 3;
/** Memberships read per round when walking a shared album (its hidden items are filtered out). */
const SHARED_SCAN_BATCH = 500;

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

/** The item as a visitor sees it when the owner has not shared locations: no GPS position. */
function withoutLocation(item: MediaItemV1): MediaItemV1 {
  return { ...item, metadata: { ...item.metadata, latitude: null, longitude: null } };
}

export function toAlbumV1(doc: AlbumDoc, count: number, cover: MediaItemV1 | null): AlbumV1 {
  return {
    id: doc._id,
    userId: doc.userId,
    name: doc.name,
    description: doc.description,
    shared: doc.shared,
    shareLocation: doc.shareLocation === true,
    hidden: doc.hidden,
    coverMediaItemId: cover?.id ?? null,
    coverMediaItem: cover,
    mediaItemsCount: count,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/**
 * The library's use cases. Rules:
 * - an album's items are its memberships in the order they were added; trashed items are left
 *   out of its items and its count and come back when restored; a purged item leaves every album;
 * - the cover is the item the owner chose while it is in the album and not trashed, else the
 *   first item added that is not trashed, else none (`coverMediaItemId` and `coverMediaItem` null);
 * - the shared view of an album (no user) also leaves out hidden items, from its items, its count
 *   and its cover, and the items' GPS position unless the owner turned `shareLocation` on;
 * - every id of a media item must be one of the caller's (asked from the media service), else
 *   `mediaitem not found` and nothing changes.
 */
export class Albums {
  constructor(
    private readonly repo: AlbumsRepository,
    private readonly media: MediaDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // ---- the owner's calls ----------------------------------------------------------------------

  async create(req: CreateAlbumRequestV1): Promise<AlbumV1> {
    const fields = { name: req.name, description: req.description ?? null, shared: req.shared ?? false, shareLocation: req.shareLocation ?? false, hidden: req.hidden ?? false };
    let cover: { mediaItemId: string; trashed: boolean; stateAt: Date } | undefined;
    if (req.coverMediaItemId) {
      const stateAt = this.now();
      const [item] = await this.media.getMany(req.userId, [req.coverMediaItemId]);
      if (!item) throw mediaItemNotFound();
      cover = { mediaItemId: item.id, trashed: item.deleted, stateAt };
    }
    const album = await this.repo.create(req.userId, fields, cover);
    return (await this.present(req.userId, [album]))[0]!;
  }

  async list(req: ListAlbumsRequestV1): Promise<AlbumV1[]> {
    const albums = await this.repo.list(req.userId, { sort: req.sort, page: req.page, limit: req.limit, shared: req.shared, hidden: req.hidden });
    return this.present(req.userId, albums);
  }

  async get(userId: string, id: string): Promise<AlbumV1> {
    const album = await this.repo.get(userId, id);
    if (!album) throw albumNotFound();
    return (await this.present(userId, [album]))[0]!;
  }

  async update(req: UpdateAlbumRequestV1): Promise<void> {
    const { userId, id } = req;
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const changes: AlbumChanges = {};
    if (req.name !== undefined) changes.name = req.name;
    if (req.description !== undefined) changes.description = req.description;
    if (req.shared !== undefined) changes.shared = req.shared;
    if (req.shareLocation !== undefined) changes.shareLocation = req.shareLocation;
    if (req.hidden !== undefined) changes.hidden = req.hidden;
    if (req.coverMediaItemId !== undefined) {
      if (req.coverMediaItemId !== null) {
        // The chosen cover must be one of the caller's items, in this album and not in the trash.
        const [item] = await this.media.getMany(userId, [req.coverMediaItemId]);
        if (!item || item.deleted || !(await this.repo.isVisibleMember(id, item.id))) throw mediaItemNotFound();
      }
      changes.coverMediaItemId = req.coverMediaItemId;
    }
    if (!(await this.repo.update(userId, id, changes))) throw albumNotFound();
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw albumNotFound();
  }

  /** A page of the album's items in the order added; trashed ones left out, hidden ones kept. */
  async listItems(userId: string, id: string, page: number, limit: number): Promise<MediaItemV1[]> {
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const members = await this.repo.visibleMembers(id, (page - 1) * limit, limit);
    const items = await this.media.getMany(userId, members.map((m) => m.mediaItemId));
    // The membership may not know yet of a trash the media service already did.
    return items.filter((i) => !i.deleted);
  }

  async addItems(userId: string, id: string, mediaItemIds: string[]): Promise<void> {
    const ids = unique(mediaItemIds);
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const stateAt = this.now();
    const items = await this.media.getMany(userId, ids);
    if (items.length !== ids.length) throw mediaItemNotFound();
    await this.repo.addMembers(userId, id, items.map((i) => ({ mediaItemId: i.id, trashed: i.deleted })), stateAt);
  }

  async removeItems(userId: string, id: string, mediaItemIds: string[]): Promise<void> {
    const ids = unique(mediaItemIds);
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const items = await this.media.getMany(userId, ids);
    if (items.length !== ids.length) throw mediaItemNotFound();
    if ((await this.repo.removeMembers(userId, id, ids)) > 0) await this.repo.touch(userId, id);
  }

  /** The caller's albums holding the item, ordered by name. */
  async albumsOfItem(userId: string, mediaItemId: string): Promise<AlbumV1[]> {
    const [item] = await this.media.getMany(userId, [mediaItemId]);
    if (!item) throw mediaItemNotFound();
    const albums = await this.repo.findByIds(userId, unique(await this.repo.albumIdsHolding(userId, mediaItemId)));
    return this.present(userId, albums);
  }

  /** Albums of one user with their counts and covers: one media call for the whole page. */
  private async present(userId: string, albums: AlbumDoc[]): Promise<AlbumV1[]> {
    const prepared = await Promise.all(
      albums.map(async (album) => {
        const [count, first, chosenVisible] = await Promise.all([
          this.repo.countVisible(album._id),
          this.repo.visibleMembers(album._id, 0, COVER_CANDIDATES),
          album.coverMediaItemId ? this.repo.isVisibleMember(album._id, album.coverMediaItemId) : Promise.resolve(false),
        ]);
        const candidates = unique([...(chosenVisible && album.coverMediaItemId ? [album.coverMediaItemId] : []), ...first.map((m) => m.mediaItemId)]);
        return { album, count, candidates };
      }),
    );
    const wanted = unique(prepared.flatMap((p) => p.candidates));
    const items = new Map((wanted.length ? await this.media.getMany(userId, wanted) : []).map((i) => [i.id, i]));
    return prepared.map(({ album, count, candidates }) => {
      const cover = candidates.map((id) => items.get(id)).find((i) => i !== undefined && !i.deleted) ?? null;
      return toAlbumV1(album, count, cover);
    });
  }

  // ---- what happens elsewhere: media items trashed, restored, purged; users deleted ------------
  // Each is idempotent (events come at least once) and ignores a change older than the state it has.

  /** The item moved to (trashed) or out of the trash at `at`: answers how many memberships changed. */
  async itemTrashed(userId: string, mediaItemId: string, trashed: boolean, at: Date): Promise<number> {
    return this.repo.setTrashed(userId, mediaItemId, trashed, at);
  }

  /** The item is gone for good: it leaves every album and stops being a cover. */
  async itemPurged(userId: string, mediaItemId: string, at: Date): Promise<void> {
    await this.repo.purgeItem(userId, mediaItemId, at);
  }

  async userDeleted(userId: string): Promise<void> {
    await this.repo.deleteUser(userId);
  }

  // ---- sharing: anyone with the album id, while the album is shared ----------------------------

  private async sharedAlbumDoc(id: string): Promise<AlbumDoc> {
    const album = await this.repo.getById(id);
    if (!album || !album.shared) throw sharedLinkNotFound();
    return album;
  }

  /** The shared album: count and cover over the items a visitor sees (neither trashed nor hidden). */
  async sharedAlbum(id: string): Promise<AlbumV1> {
    const album = await this.sharedAlbumDoc(id);
    let chosen: MediaItemV1 | undefined;
    const scan = await this.scanShared(album, { skip: 0, take: 1, countAll: true }, (item) => {
      if (item.id === album.coverMediaItemId) chosen = item;
    });
    return toAlbumV1(album, scan.seen, chosen ?? scan.items[0] ?? null);
  }

  /** A page of what a visitor sees, in the order added. */
  async sharedItems(id: string, page: number, limit: number): Promise<MediaItemV1[]> {
    const album = await this.sharedAlbumDoc(id);
    return (await this.scanShared(album, { skip: (page - 1) * limit, take: limit, countAll: false })).items;
  }

  /**
   * Walks the album's non-trashed memberships in order, asking the media service for each batch,
   * and keeps the items a visitor may see. Hidden is a flag of the media item, not of the
   * membership, so pages are cut after filtering. `seen` counts the visible items walked (all of
   * them with `countAll`).
   */
  private async scanShared(
    album: AlbumDoc,
    want: { skip: number; take: number; countAll: boolean },
    onVisible?: (item: MediaItemV1) => void,
  ): Promise<{ items: MediaItemV1[]; seen: number }> {
    const items: MediaItemV1[] = [];
    let seen = 0;
    for (let offset = 0; ; offset += SHARED_SCAN_BATCH) {
      const members = await this.repo.visibleMembers(album._id, offset, SHARED_SCAN_BATCH);
      if (members.length === 0) break;
      const batch = await this.media.getMany(album.userId, members.map((m) => m.mediaItemId));
      for (const found of batch) {
        if (found.deleted || found.hidden) continue;
        const item = album.shareLocation === true ? found : withoutLocation(found);
        onVisible?.(item);
        if (seen >= want.skip && items.length < want.take) items.push(item);
        seen += 1;
        if (!want.countAll && items.length >= want.take) return { items, seen };
      }
      if (members.length < SHARED_SCAN_BATCH) break;
    }
    return { items, seen };
  }
}
