import type {
  AlbumMemberV1,
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
import { AppError, badRequest, instantOf, notFound } from '@trove/kit';
import type { MediaDirectory } from '../ports/media';
import { toAlbumV1 } from './document';
import { hashSharePassword, verifySharePassword } from './share-password';
import type { AlbumDoc, AlbumMemberDoc, MembershipDoc } from './document';
import type { AlbumChanges, AlbumsRepository } from './repository';

export const albumNotFound = () => notFound('album not found');
export const mediaItemNotFound = () => notFound('mediaitem not found');
export const sharedLinkNotFound = () => notFound('shared link not found');
export const memberNotFound = () => notFound('member not found');
const forbidden = (message: string) => new AppError('FORBIDDEN', message);

export type AlbumRole = 'owner' | 'contributor' | 'viewer';
/** An album as one user may reach it: theirs (owner) or shared with them (their member role). */
interface Access {
  album: AlbumDoc;
  role: AlbumRole;
}

function toMemberV1(m: AlbumMemberDoc): AlbumMemberV1 {
  return { userId: m.userId, role: m.role, addedAt: m.addedAt.toISOString() };
}

export const wrongSharePassword = () => new AppError('UNAUTHORIZED', 'wrong password');

/** The link settings of a create or update request as stored: the password hashed, with a fresh key. */
async function linkSettings(req: {
  shareExpiresAt?: string | null;
  shareAllowDownload?: boolean;
  sharePassword?: string | null;
}): Promise<Pick<AlbumChanges, 'shareExpiresAt' | 'shareAllowDownload' | 'sharePasswordHash' | 'shareKey'>> {
  const settings: Pick<AlbumChanges, 'shareExpiresAt' | 'shareAllowDownload' | 'sharePasswordHash' | 'shareKey'> = {};
  if (req.shareExpiresAt !== undefined)
    settings.shareExpiresAt = req.shareExpiresAt === null ? null : instantOf(req.shareExpiresAt);
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
function linkAccess(album: AlbumDoc): Omit<SharedContentV1, 'itemUserId'> {
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
 *   `mediaitem not found` and nothing changes;
 * - members: the owner shares an album with other users as `viewer` or `contributor`. A member
 *   reads the album and its items; a contributor adds their own items and removes those (the owner
 *   removes any); renaming, deleting, the link, the cover and the members are the owner's (a
 *   member gets 403; anyone else 404, as if the album did not exist). Each user sees, of an album,
 *   the items not trashed, and of those hidden only their own; an item stays its adder's.
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

  /** The caller's albums and those shared with them, each with the caller's role. */
  async list(req: ListAlbumsRequestV1): Promise<AlbumV1[]> {
    const memberships = await this.repo.sharedWith(req.userId);
    const albums = await this.repo.list(req.userId, {
      sort: req.sort,
      page: req.page,
      limit: req.limit,
      shared: req.shared,
      hidden: req.hidden,
      sharedWith: memberships.map((m) => m.albumId),
    });
    const roles = new Map(memberships.map((m) => [m.albumId, m.role]));
    return this.present(
      req.userId,
      albums,
      albums.map((a) => (a.userId === req.userId ? 'owner' : (roles.get(a._id) ?? 'viewer'))),
    );
  }

  async get(userId: string, id: string): Promise<AlbumV1> {
    const { album, role } = await this.access(userId, id);
    return (await this.present(userId, [album], [role]))[0]!;
  }

  /** The album as `userId` may reach it; `album not found` for anyone neither its owner nor a member. */
  private async access(userId: string, id: string): Promise<Access> {
    const album = await this.repo.getById(id);
    if (!album) throw albumNotFound();
    if (album.userId === userId) return { album, role: 'owner' };
    const member = await this.repo.member(id, userId);
    if (!member) throw albumNotFound();
    return { album, role: member.role };
  }

  /** Like `access`, for the owner's calls: a member is forbidden. */
  private async ownerAccess(userId: string, id: string): Promise<AlbumDoc> {
    const { album, role } = await this.access(userId, id);
    if (role !== 'owner') throw forbidden('only the album owner may do this');
    return album;
  }

  async update(req: UpdateAlbumRequestV1): Promise<void> {
    const { userId, id } = req;
    await this.ownerAccess(userId, id);
    const changes: AlbumChanges = await linkSettings(req);
    if (req.name !== undefined) changes.name = req.name;
    if (req.description !== undefined) changes.description = req.description;
    if (req.shared !== undefined) changes.shared = req.shared;
    if (req.shareLocation !== undefined) changes.shareLocation = req.shareLocation;
    if (req.hidden !== undefined) changes.hidden = req.hidden;
    if (req.coverMediaItemId !== undefined) {
      if (req.coverMediaItemId !== null) {
        // The chosen cover must be in this album as its owner sees it: one of their items, or a member's they may see
        // (not hidden by its owner), and not in the trash (`itemsOf` checks the item's own flags too).
        const membership = await this.repo.viewableMember(id, userId, req.coverMediaItemId);
        const [item] = membership ? await this.itemsOf(userId, [membership]) : [];
        if (!item) throw mediaItemNotFound();
      }
      changes.coverMediaItemId = req.coverMediaItemId;
    }
    if (!(await this.repo.update(userId, id, changes))) throw albumNotFound();
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.ownerAccess(userId, id);
    if (!(await this.repo.delete(userId, id))) throw albumNotFound();
  }

  /** A page of the album's items in the order added, as the caller sees them (trashed left out; hidden only their own). */
  async listItems({ userId, id, page, limit }: ListAlbumMediaItemsRequestV1): Promise<MediaItemV1[]> {
    await this.access(userId, id);
    const members = await this.repo.viewableMembers(id, userId, (page - 1) * limit, limit);
    return this.itemsOf(userId, members);
  }

  /**
   * The items of these memberships as `viewerId` (null: a link's visitor) sees them, in their order: asked from the media
   * service per owner (an item stays its adder's), checked again against its own flags (the
   * memberships learn of a trash or a hide through events).
   */
  private async itemsOf(viewerId: string | null, members: MembershipDoc[]): Promise<MediaItemV1[]> {
    const byOwner = new Map<string, string[]>();
    for (const m of members) byOwner.set(m.userId, [...(byOwner.get(m.userId) ?? []), m.mediaItemId]);
    const found = new Map<string, MediaItemV1>();
    for (const [owner, ids] of byOwner) for (const i of await this.media.getMany(owner, ids)) found.set(i.id, i);
    return members
      .map((m) => found.get(m.mediaItemId))
      .filter((i): i is MediaItemV1 => i !== undefined && !i.deleted && (!i.hidden || i.userId === viewerId));
  }

  /**
   * Which of these items the album holds as the caller sees it (as its list shows them: trashed left out, hidden only
   * their own): what an "add photos" picker marks as already there. Any role may ask, about their own items or those
   * they see in the album.
   */
  async itemsHeld(userId: string, id: string, mediaItemIds: string[]): Promise<string[]> {
    await this.access(userId, id);
    const ids = unique(mediaItemIds);
    const held = await this.repo.viewableAmong(id, userId, ids);
    // Like every call naming items: one the caller cannot see (not in the album for them, not theirs) is not found,
    // so the answer never tells another user's item from one that does not exist.
    const heldIds = new Set(held);
    const rest = ids.filter((i) => !heldIds.has(i));
    if ((await this.media.getMany(userId, rest)).length !== rest.length) throw mediaItemNotFound();
    return held;
  }

  /** The owner or a contributor adds their own items; a viewer is forbidden. */
  async addItems(userId: string, id: string, mediaItemIds: string[]): Promise<void> {
    const ids = unique(mediaItemIds);
    const { album, role } = await this.access(userId, id);
    if (role === 'viewer') throw forbidden('a viewer cannot add items to this album');
    const stateAt = this.now();
    const items = await this.media.getMany(userId, ids);
    if (items.length !== ids.length) throw mediaItemNotFound();
    await this.repo.addItemsOf(
      album.userId,
      userId,
      id,
      items.map((i) => ({ mediaItemId: i.id, trashed: i.deleted, hidden: i.hidden })),
      stateAt,
    );
  }

  /**
   * The owner removes any item of the album, a contributor only their own (another's: forbidden), a
   * viewer none. An id neither in the album nor the caller's item is not found; nothing changes then.
   */
  async removeItems(userId: string, id: string, mediaItemIds: string[]): Promise<void> {
    const ids = unique(mediaItemIds);
    const { album, role } = await this.access(userId, id);
    if (role === 'viewer') throw forbidden('a viewer cannot remove items from this album');
    const others = (await this.repo.membershipsOf(id, ids)).filter((m) => m.userId !== userId);
    if (others.length > 0 && role !== 'owner') throw forbidden("only the album owner may remove another user's items");
    const otherIds = new Set(others.map((m) => m.mediaItemId));
    const own = ids.filter((i) => !otherIds.has(i));
    if ((await this.media.getMany(userId, own)).length !== own.length) throw mediaItemNotFound();
    if ((await this.repo.removeAnyMembers(id, ids)) > 0) await this.repo.touch(album.userId, id);
  }

  /** The albums the caller may see holding one of the caller's items, ordered by name. */
  async albumsOfItem(userId: string, mediaItemId: string): Promise<AlbumV1[]> {
    const [item] = await this.media.getMany(userId, [mediaItemId]);
    if (!item) throw mediaItemNotFound();
    const albums = await this.repo.findAnyByIds(unique(await this.repo.albumIdsHolding(userId, mediaItemId)));
    const reachable: Access[] = [];
    for (const album of albums) {
      if (album.userId === userId) reachable.push({ album, role: 'owner' });
      else {
        const member = await this.repo.member(album._id, userId);
        if (member) reachable.push({ album, role: member.role });
      }
    }
    return this.present(
      userId,
      reachable.map((r) => r.album),
      reachable.map((r) => r.role),
    );
  }

  /** Albums as `userId` sees them, with their counts, covers and the user's `roles`: one media call per items' owner. */
  private async present(userId: string, albums: AlbumDoc[], roles?: AlbumRole[]): Promise<AlbumV1[]> {
    const prepared = await Promise.all(
      albums.map(async (album) => {
        const [count, first, chosen] = await Promise.all([
          this.repo.countViewable(album._id, userId),
          this.repo.viewableMembers(album._id, userId, 0, COVER_CANDIDATES),
          album.coverMediaItemId
            ? this.repo.viewableMember(album._id, userId, album.coverMediaItemId)
            : Promise.resolve(null),
        ]);
        const candidates = [...(chosen ? [chosen] : []), ...first];
        return { album, count, candidates };
      }),
    );
    const wanted = [...new Map(prepared.flatMap((p) => p.candidates).map((m) => [m.mediaItemId, m])).values()];
    const items = new Map((await this.itemsOf(userId, wanted)).map((i) => [i.id, i]));
    return prepared.map(({ album, count, candidates }, n) => {
      const cover = candidates.map((m) => items.get(m.mediaItemId)).find((i) => i !== undefined) ?? null;
      return toAlbumV1(album, count, cover, roles?.[n] ?? 'owner');
    });
  }

  // ---- members: the owner shares the album with other users ----------------------------------

  /** Shares the album with `memberId` (a user the gateway resolved); again: the role changes. */
  async addMember(
    userId: string,
    id: string,
    memberId: string,
    role: 'viewer' | 'contributor',
  ): Promise<AlbumMemberV1> {
    await this.ownerAccess(userId, id);
    if (memberId === userId) throw badRequest('the owner cannot be a member of their own album');
    return toMemberV1(await this.repo.putMember(userId, id, memberId, role));
  }

  async listMembers(userId: string, id: string): Promise<AlbumMemberV1[]> {
    await this.access(userId, id);
    return (await this.repo.members(id)).map(toMemberV1);
  }

  /** The owner removes anyone, a member themself; access ends at once (content URLs are checked at every serve). */
  async removeMember(userId: string, id: string, memberId: string): Promise<void> {
    const { role } = await this.access(userId, id);
    if (role !== 'owner' && memberId !== userId) throw forbidden('only the album owner may remove other members');
    if (!(await this.repo.removeMember(id, memberId))) throw memberNotFound();
  }

  /**
   * Whether an album-scoped content URL of `userId` still opens for `mediaItemId` (a Live Photo's
   * still for its motion part): they may reach the album and it shows them the item. Answers the
   * item's owner (the gateway checks it against the media service's own answer).
   */
  async memberContent(userId: string, albumId: string, mediaItemId: string): Promise<SharedContentV1> {
    const { album } = await this.access(userId, albumId).catch(() => {
      throw mediaItemNotFound();
    });
    const membership = await this.repo.viewableMember(albumId, userId, mediaItemId);
    if (!membership) throw mediaItemNotFound();
    // A member is no link visitor: the link's download switch and password do not apply to them.
    return {
      userId: album.userId,
      itemUserId: membership.userId,
      shareLocation: album.shareLocation === true,
      shareAllowDownload: true,
      shareKey: null,
    };
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
    const [count, first, chosen] = await Promise.all([
      this.repo.countShared(album._id),
      this.repo.sharedMembers(album._id, 0, COVER_CANDIDATES),
      album.coverMediaItemId ? this.repo.sharedMembership(album._id, album.coverMediaItemId) : Promise.resolve(null),
    ]);
    const candidates = [...(chosen ? [chosen] : []), ...first.filter((m) => m.mediaItemId !== chosen?.mediaItemId)];
    const cover = (await this.visibleItems(album, candidates))[0] ?? null;
    return toAlbumV1(album, count, cover);
  }

  /** A page of what a visitor sees, in the order added: one page of memberships, one media call. */
  async sharedItems(id: string, page: number, limit: number): Promise<SharedAlbumItemsV1> {
    const album = await this.sharedAlbumDoc(id);
    const members = await this.repo.sharedMembers(album._id, (page - 1) * limit, limit);
    const items = await this.visibleItems(album, members);
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
    const membership = await this.repo.sharedMembership(album._id, mediaItemId);
    if (!membership) throw sharedLinkNotFound();
    return { ...linkAccess(album), itemUserId: membership.userId };
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
   * The items of these memberships in that order as a visitor sees them — the owner's and those
   * contributors added: the media service's own flags are checked again (the memberships learn of
   * a hide or a trash through events), and the GPS position is left out unless the owner shares locations.
   */
  private async visibleItems(album: AlbumDoc, members: MembershipDoc[]): Promise<MediaItemV1[]> {
    const items = await this.itemsOf(null, members);
    return items.map((i) => (album.shareLocation === true ? i : withoutLocation(i)));
  }
}
