import type { AlbumV1, FaceV1, MediaItemV1, PersonV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import type { components } from '@trove/openapi';
import { ContentUrls } from './content/content-urls';
import type { RequestOrigin } from './content/content-urls';
import type { ContentVariant } from './content/url-signer';
import { schemaFields, schemaFieldsOf } from './openapi/schema-fields';

type MediaItem = components['schemas']['MediaItem'];
type Album = components['schemas']['Album'];
type SharedAlbum = components['schemas']['SharedAlbum'];
type SharedMediaItem = components['schemas']['SharedMediaItem'];
type Place = components['schemas']['Place'];
type Thing = components['schemas']['Thing'];
type Person = components['schemas']['Person'];
type Face = components['schemas']['Face'];

/** Users' names by id (the auth service's answer), for the `owner` of albums. */
export type NamesById = ReadonlyMap<string, string>;

/** Media items by id, as the media service answered them (what it no longer has is missing). */
export type MediaItemsById = ReadonlyMap<string, MediaItemV1>;

/** What a shared album's visitors get depends on: the library's answer about the link. */
export interface LinkAccess {
  shareLocation: boolean;
  shareAllowDownload: boolean;
  shareKey: string | null;
}

/** Originals (and so the ZIP) only while the owner allows downloads and shares locations (an original keeps its GPS position). */
export function downloadsAllowed(link: Pick<LinkAccess, 'shareLocation' | 'shareAllowDownload'>): boolean {
  return link.shareLocation && link.shareAllowDownload;
}

/**
 * Service answers as the API shows them (the MediaItem, Album, Place, Thing and Person of openapi.yaml,
 * fields in its order): a media item's metadata flattened into it, internal fields (sha256, blob
 * variants, deletedAt) left behind, signed absolute content URLs added (a Live Photo's motion URL too), an album's, place's or
 * thing's cover item presented the same way; a person's cover face with its own signed thumbnail URL.
 */
export function presenter(req: RequestOrigin, urls: ContentUrls) {
  const signed = urls.forRequest(req);
  const caller = ContentUrls.callerOf(req);
  /**
   * An item of the caller's, or (with `albumId`) an item of an album the caller reaches: another
   * user's item there gets URLs scoped to the album, checked against it whenever fetched.
   */
  const itemIn = (item: MediaItemV1, albumId?: string): MediaItem => {
    const scope = albumId !== undefined && item.userId !== caller ? albumId : undefined;
    const url = (id: string, variant: 'original' | 'preview' | 'thumbnail') =>
      signed(id, variant, undefined, undefined, scope);
    // A Live Photo's still plays its motion part: that video's web-playable preview.
    const motion = {
      motionMediaItemId: item.motionMediaItemId ?? null,
      motionUrl: item.motionMediaItemId ? url(item.motionMediaItemId, 'preview') : null,
    };
    const urls = {
      sourceUrl: url(item.id, 'original'),
      previewUrl: url(item.id, 'preview'),
      thumbnailUrl: url(item.id, 'thumbnail'),
    };
    // As `{ ...item, ...item.metadata, ...motion, ...urls }` picked to the schema, without the spread.
    return schemaFieldsOf('MediaItem', item, item.metadata, motion, urls) as MediaItem;
  };
  const mediaItem = (item: MediaItemV1): MediaItem => itemIn(item);
  const url = signed;
  /** An album as the caller sees it, with its owner's name (from `names`; empty when unknown). */
  const album = (a: AlbumV1, names: NamesById = new Map()): Album =>
    schemaFields('Album', {
      ...a,
      role: a.role ?? 'owner',
      owner: { id: a.userId, name: names.get(a.userId) ?? '' },
      coverMediaItem: a.coverMediaItem ? itemIn(a.coverMediaItem, a.id) : null,
    });
  /**
   * An item as a visitor of shared album `albumId` sees it: the SharedMediaItem fields only, its
   * URLs signed for that album (checked when fetched; with the key of the link's password when it
   * has one, so an <img> opens without a header), and no original unless the owner shares
   * locations (an original keeps what the camera wrote into it) and allows downloads. The library
   * already left out the GPS position when locations are not shared.
   */
  const sharedMediaItem = (item: MediaItemV1, albumId: string, link: LinkAccess): SharedMediaItem => {
    const shareUrl = (id: string, variant: ContentVariant) => url(id, variant, albumId, link.shareKey);
    const urls = {
      sourceUrl: downloadsAllowed(link) ? shareUrl(item.id, 'original') : null,
      previewUrl: shareUrl(item.id, 'preview'),
      thumbnailUrl: shareUrl(item.id, 'thumbnail'),
      motionUrl: item.motionMediaItemId ? shareUrl(item.motionMediaItemId, 'preview') : null,
    };
    return schemaFieldsOf('SharedMediaItem', item, item.metadata, urls) as SharedMediaItem;
  };
  /** A shared album as its visitors see it: nothing of the owner, the link's expiry and whether they may download. */
  const sharedAlbum = (a: AlbumV1): SharedAlbum =>
    schemaFields('SharedAlbum', {
      ...a,
      expiresAt: a.shareExpiresAt,
      allowDownload: downloadsAllowed(a),
      coverMediaItem: a.coverMediaItem ? sharedMediaItem(a.coverMediaItem, a.id, a) : null,
    });
  /** Explore answers cover ids: the cover is the item among `items`, or none (id null) when the media service no longer has it. */
  const withCover = <G extends { coverMediaItemId: string | null }>(group: G, items: MediaItemsById) => {
    const found = group.coverMediaItemId ? items.get(group.coverMediaItemId) : undefined;
    const cover = found ? mediaItem(found) : undefined;
    return {
      ...group,
      coverMediaItemId: cover?.id ?? null,
      coverMediaItem: cover,
      thumbnailUrl: cover?.thumbnailUrl ?? null,
    };
  };
  const place = (p: PlaceV1, items: MediaItemsById): Place => schemaFields('Place', withCover(p, items));
  const thing = (t: ThingV1, items: MediaItemsById): Thing => schemaFields('Thing', withCover(t, items));
  const faceUrl = urls.facesForRequest(req);
  /** A face: its signed thumbnail as `thumbnail`, and as `thumbnailUrl` too (the alias earlier clients read). */
  const faceOf = (face: FaceV1) => {
    const thumbnail = faceUrl(face.id);
    return { id: face.id, mediaItemId: face.mediaItemId, thumbnail, thumbnailUrl: thumbnail, boundingBox: face.box };
  };
  /** A person's cover: the item among `items` with the person's face in it, or none when the media service no longer has it. */
  const person = (p: PersonV1, items: MediaItemsById): Person => {
    const found = p.coverMediaItemId ? items.get(p.coverMediaItemId) : undefined;
    const face = found ? p.coverFace : null;
    return schemaFields('Person', {
      ...p,
      coverMediaItemId: found?.id ?? null,
      coverMediaItemFaceId: face?.id ?? null,
      coverMediaItem: found ? mediaItem(found) : undefined,
      coverMediaItemFace: face ? faceOf(face) : null,
    });
  };
  return {
    mediaItem,
    mediaItems: (items: MediaItemV1[]): MediaItem[] => items.map(mediaItem),
    album,
    sharedAlbum,
    sharedMediaItem,
    albums: (albums: AlbumV1[], names?: NamesById): Album[] => albums.map((a) => album(a, names)),
    /** An album's items: others' items with URLs scoped to the album. */
    albumItems: (items: MediaItemV1[], albumId: string): MediaItem[] => items.map((i) => itemIn(i, albumId)),
    place,
    places: (places: PlaceV1[], items: MediaItemsById): Place[] => places.map((p) => place(p, items)),
    thing,
    things: (things: ThingV1[], items: MediaItemsById): Thing[] => things.map((t) => thing(t, items)),
    person,
    people: (people: PersonV1[], items: MediaItemsById): Person[] => people.map((p) => person(p, items)),
    faces: (faces: FaceV1[]): Face[] => faces.map(faceOf),
  };
}
