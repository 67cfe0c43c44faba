import type {
  AlbumV1,
  CreateAlbumRequestV1,
  ListAlbumMediaItemsRequestV1,
  ListAlbumsRequestV1,
  MediaItemV1,
  SharedAlbumItemsV1,
  SharedContentV1,
  UpdateAlbumRequestV1,
} from '@trove/proto-events';
import { randomUUID } from 'node:crypto';
import { AppError, badRequest, notFound } from '@trove/kit';
import type { MediaDirectory } from '../ports/media';
import { toAlbumV1 } from './document';
import { hashSharePassword, verifySharePassword } from './share-password';
import type { AlbumDoc } from './document';
import type { AlbumChanges, AlbumsRepository } from './repository';

export const albumNotFound = () => notFound('album not found');
export const mediaItemNotFound = () => notFound('mediaitem not found');
export const sharedLinkNotFound = () => notFound('shared link not found');
export const wrongSharePassword = () => new AppError('UNAUTHORIZED', 'wrong password');

/** The link settings of a create or update request as stored: the password hashed, with a fresh key. */
async function linkSettings(req: {
  shareExpiresAt?: string | null;
  shareAllowDownload?: boolean;
  sharePassword?: string | null;
}): Promise<Pick<AlbumChanges, 'shareExpiresAt' | 'shareAllowDownload' | 'sharePasswordHash' | 'shareKey'>> {
  const settings: Pick<AlbumChanges, 'shareExpiresAt' | 'shareAllowDownload' | 'sharePasswordHash' | 'shareKey'> = {};
  if (req.shareExpiresAt !== undefined)
    settings.shareExpiresAt = req.shareExpiresAt === null ? null : new Date(req.shareExpiresAt);
  if (req.shareAllowDownload !== undefined) settings.shareAllowDownload = req.shareAllowDownload;
  if (req.sharePassword === null) {
    settings.sharePasswordHash = null;
    settings.shareKey = null;
  } else if (req.sharePassword !== undefined) {
    // A new key with every new password (even the same one again): older tokens and URLs stop.
    settings.sharePasswordHash = await hashSharePassword(req.sharePassword);
    settings.shareKey = randomUUID();
  }
  return settings;
}

/**
 * How many of an album's first items are asked for when composing its cover: the first one may
 * already be in the trash (or purged) while the media event is still on its way.
 */
const COVER_CANDIDATES = 3;
/** Memberships read per round of the start-up backfill of their hidden flag. */
const BACKFILL_BATCH = 200;

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

/** The item as a visitor sees it when the owner has not shared locations: no GPS position. */
function withoutLocation(item: MediaItemV1): MediaItemV1 {
  return { ...item, metadata: { ...item.metadata, latitude: null, longitude: null } };
}

/** What the gateway needs to let a visitor in: the owner, and the link's settings. */
function linkAccess(album: AlbumDoc): SharedContentV1 {
  return {
    userId: album.userId,
    shareLocation: album.shareLocation === true,
    shareAllowDownload: album.shareAllowDownload !== false,
    shareKey: album.sharePasswordHash ? (album.shareKey ?? null) : null,
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
export class AlbumsService {
  constructor(
    private readonly repo: AlbumsRepository,
    private readonly media: MediaDirectory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // ---- the owner's calls ----------------------------------------------------------------------

  async create(req: CreateAlbumRequestV1): Promise<AlbumV1> {
    const fields = {
      name: req.name,
      description: req.description ?? null,
      shared: req.shared ?? false,
      shareLocation: req.shareLocation ?? false,
      shareAllowDownload: true,
      shareExpiresAt: null,
      ...(await linkSettings(req)),
      hidden: req.hidden ?? false,
    };
    let cover: { mediaItemId: string; trashed: boolean; hidden: boolean; stateAt: Date } | undefined;
    if (req.coverMediaItemId) {
      const stateAt = this.now();
      const [item] = await this.media.getMany(req.userId, [req.coverMediaItemId]);
      if (!item) throw mediaItemNotFound();
      cover = { mediaItemId: item.id, trashed: item.deleted, hidden: item.hidden, stateAt };
    }
    const album = await this.repo.create(req.userId, fields, cover);
    return (await this.present(req.userId, [album]))[0]!;
  }

  async list(req: ListAlbumsRequestV1): Promise<AlbumV1[]> {
    const albums = await this.repo.list(req.userId, {
      sort: req.sort,
      page: req.page,
      limit: req.limit,
      shared: req.shared,
      hidden: req.hidden,
    });
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
    const changes: AlbumChanges = await linkSettings(req);
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
  async listItems({ userId, id, page, limit }: ListAlbumMediaItemsRequestV1): Promise<MediaItemV1[]> {
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const members = await this.repo.visibleMembers(id, (page - 1) * limit, limit);
    const items = await this.media.getMany(
      userId,
      members.map((m) => m.mediaItemId),
    );
    // The membership may not know yet of a trash the media service already did.
    return items.filter((i) => !i.deleted);
  }

  async addItems(userId: string, id: string, mediaItemIds: string[]): Promise<void> {
    const ids = unique(mediaItemIds);
    if (!(await this.repo.get(userId, id))) throw albumNotFound();
    const stateAt = this.now();
    const items = await this.media.getMany(userId, ids);
    if (items.length !== ids.length) throw mediaItemNotFound();
    await this.repo.addMembers(
      userId,
      id,
      items.map((i) => ({ mediaItemId: i.id, trashed: i.deleted, hidden: i.hidden })),
      stateAt,
    );
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
          album.coverMediaItemId
            ? this.repo.isVisibleMember(album._id, album.coverMediaItemId)
            : Promise.resolve(false),
        ]);
        const candidates = unique([
          ...(chosenVisible && album.coverMediaItemId ? [album.coverMediaItemId] : []),
          ...first.map((m) => m.mediaItemId),
        ]);
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

  /**
   * The item changed (hidden, shown, described, processed): its hidden flag is read again from the
   * media service and mirrored into its memberships, with the item's updatedAt as the version.
   */
  async itemChanged(userId: string, mediaItemId: string): Promise<number> {
    const [item] = await this.media.getMany(userId, [mediaItemId]);
    if (!item) return 0;
    return this.repo.setHidden(userId, mediaItemId, item.hidden, new Date(item.updatedAt));
  }

  /**
   * Memberships from before the mirrored hidden flag get it from the media service, a batch at a
   * time, until none is left (run once at start; until then a shared view leaves them out). Answers
   * how many items were filled in. An item the media service no longer has is marked hidden.
   */
  async backfillHidden(): Promise<number> {
    let filled = 0;
    for (;;) {
      const batch = await this.repo.withoutHidden(BACKFILL_BATCH);
      if (batch.length === 0) return filled;
      const byUser = new Map<string, string[]>();
      for (const m of batch) byUser.set(m.userId, unique([...(byUser.get(m.userId) ?? []), m.mediaItemId]));
      for (const [userId, ids] of byUser) {
        const found = new Map((await this.media.getMany(userId, ids)).map((i) => [i.id, i]));
        for (const id of ids) {
          await this.repo.backfillHidden(userId, id, found.get(id)?.hidden ?? true);
          filled += 1;
        }
      }
    }
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
    // Past its expiry a link is as if it were not shared (its content URLs ask here too).
    if (album.shareExpiresAt && album.shareExpiresAt.getTime() <= this.now().getTime()) throw sharedLinkNotFound();
    return album;
  }

  /**
   * The shared album: count and cover over the items a visitor sees (neither trashed nor hidden).
   * Bounded whatever the album's size: one count over an index, a few memberships and one media call.
   */
  async sharedAlbum(id: string): Promise<AlbumV1> {
    const album = await this.sharedAlbumDoc(id);
    const [count, first, chosenVisible] = await Promise.all([
      this.repo.countShared(album._id),
      this.repo.sharedMembers(album._id, 0, COVER_CANDIDATES),
      album.coverMediaItemId ? this.repo.isSharedMember(album._id, album.coverMediaItemId) : Promise.resolve(false),
    ]);
    const candidates = unique([
      ...(chosenVisible && album.coverMediaItemId ? [album.coverMediaItemId] : []),
      ...first.map((m) => m.mediaItemId),
    ]);
    const cover = (await this.visibleItems(album, candidates))[0] ?? null;
    return toAlbumV1(album, count, cover);
  }

  /** A page of what a visitor sees, in the order added: one page of memberships, one media call. */
  async sharedItems(id: string, page: number, limit: number): Promise<SharedAlbumItemsV1> {
    const album = await this.sharedAlbumDoc(id);
    const members = await this.repo.sharedMembers(album._id, (page - 1) * limit, limit);
    const items = await this.visibleItems(
      album,
      members.map((m) => m.mediaItemId),
    );
    return { ...linkAccess(album), items };
  }

  /**
   * Whether a signed content URL of the shared album still opens for `mediaItemId` (the member: a
   * Live Photo's still for its motion part): the album is shared and holds it, neither trashed nor
   * hidden. The gateway asks at every serve, so unsharing, removing, hiding or trashing ends access
   * at once; it checks the media service's own flags of the item beside this.
   */
  async sharedContent(albumId: string, mediaItemId: string): Promise<SharedContentV1> {
    const album = await this.sharedAlbumDoc(albumId);
    if (!(await this.repo.isSharedMember(album._id, mediaItemId))) throw sharedLinkNotFound();
    return linkAccess(album);
  }

  /**
   * A visitor's password for the link: answers the key the gateway binds its unlock token to.
   * Wrong → 401 `wrong password` (the gateway counts failures per visitor); a link without a
   * password → 400; a link that does not answer → 404.
   */
  async unlockShared(id: string, password: string): Promise<{ userId: string; shareKey: string }> {
    const album = await this.sharedAlbumDoc(id);
    if (!album.sharePasswordHash || !album.shareKey) throw badRequest('this link has no password');
    if (!(await verifySharePassword(password, album.sharePasswordHash))) throw wrongSharePassword();
    return { userId: album.userId, shareKey: album.shareKey };
  }

  /**
   * The owner's items among `ids` in that order, as a visitor sees them: the media service's own
   * flags are checked again (the memberships learn of a hide or a trash through events), and the GPS
   * position is left out unless the owner shares locations.
   */
  private async visibleItems(album: AlbumDoc, ids: string[]): Promise<MediaItemV1[]> {
    if (ids.length === 0) return [];
    const found = await this.media.getMany(album.userId, ids);
    return found
      .filter((i) => !i.deleted && !i.hidden)
      .map((i) => (album.shareLocation === true ? i : withoutLocation(i)));
  }
}
