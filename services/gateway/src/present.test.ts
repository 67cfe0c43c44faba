import type { AlbumV1, MediaItemV1, PersonV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import { schemaProperties } from '@trove/openapi';
import { mediaItemV1 } from '@trove/kit/testing';
import { ContentUrls } from './content/content-urls';
import { ContentUrlSigner } from './content/url-signer';
import { presenter } from './present';

const item: MediaItemV1 = mediaItemV1('0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5', {
  id: '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c',
  filename: 'IMG_0001.jpg',
  favourite: true,
  metadata: {
    width: 4032,
    height: 3024,
    creationTime: '2024-06-24T10:00:00.000+02:00',
    latitude: 48.85,
    longitude: 2.35,
    cameraMake: 'Apple',
    cameraModel: 'iPhone 13',
    focalLength: '5.1',
    apertureFNumber: '1.6',
    isoEquivalent: '50',
    exposureTime: '0.001',
    fps: null,
    durationSeconds: null,
  },
  createdAt: '2024-06-24T10:01:00.000Z',
  updatedAt: '2024-06-24T10:02:00.000Z',
});

const album: AlbumV1 = {
  id: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  userId: item.userId,
  name: 'Paris',
  description: 'June',
  shared: true,
  shareLocation: false,
  shareExpiresAt: null,
  shareAllowDownload: true,
  sharePasswordSet: false,
  shareKey: null,
  hidden: false,
  coverMediaItemId: item.id,
  coverMediaItem: item,
  mediaItemsCount: 1,
  createdAt: '2024-06-25T10:00:00.000Z',
  updatedAt: '2024-06-25T10:00:00.000Z',
};

const place: PlaceV1 = {
  id: '6d7e8f90-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  userId: item.userId,
  name: 'Paris',
  town: null,
  city: 'Paris',
  state: 'Île-de-France',
  country: 'France',
  countryCode: 'FR',
  postcode: null,
  latitude: 48.85341,
  longitude: 2.3488,
  coverMediaItemId: item.id,
  mediaItemsCount: 3,
};

const thing: ThingV1 = {
  id: '7e8f9a0b-2c3d-4e5f-9a6b-7c8d9e0f1a2b',
  userId: item.userId,
  name: 'Pizza',
  coverMediaItemId: item.id,
  mediaItemsCount: 2,
};

const person: PersonV1 = {
  id: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
  userId: item.userId,
  name: 'Alice',
  hidden: false,
  coverMediaItemId: item.id,
  coverFace: {
    id: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
    mediaItemId: item.id,
    box: { x: 0.42, y: 0.18, width: 0.12, height: 0.16 },
    score: 0.9,
  },
  mediaItemsCount: 4,
  createdAt: '2024-06-25T10:00:00.000Z',
  updatedAt: '2024-06-26T10:00:00.000Z',
};

describe('presenting service answers as the API shows them', () => {
  const signer = new ContentUrlSigner({ secret: 'x'.repeat(40), ttlSeconds: 60 });
  const SID = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
  const UID = '7a6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
  // The request of a user call: the owner's URLs are signed for its session.
  const present = presenter(
    {
      protocol: 'http',
      get: () => 'photos.lan:5001',
      res: { locals: { auth: { kind: 'user', userId: UID, sessionId: SID } } },
    },
    new ContentUrls(signer),
  );

  it('a media item: exactly the fields of MediaItem in openapi.yaml, in its order, with signed absolute content URLs', () => {
    const shown = present.mediaItem(item);
    expect(Object.keys(shown)).toEqual(schemaProperties('MediaItem'));
    expect(shown).toMatchObject({
      id: item.id,
      filename: 'IMG_0001.jpg',
      favourite: true,
      cameraModel: 'iPhone 13',
      size: 1234,
      creationTime: item.metadata.creationTime,
      latitude: 48.85,
    });
    expect(shown).not.toHaveProperty('sha256');
    for (const [field, variant] of [
      ['sourceUrl', 'original'],
      ['previewUrl', 'preview'],
      ['thumbnailUrl', 'thumbnail'],
    ] as const) {
      const url = new URL(shown[field]);
      expect(url.origin).toBe('http://photos.lan:5001');
      expect(url.pathname).toBe(`/v1/mediaItems/${item.id}/${variant}`);
      expect(
        signer.verify(
          url.pathname,
          url.searchParams.get('exp') ?? undefined,
          url.searchParams.get('sig') ?? undefined,
          {
            sid: SID,
            uid: UID,
          },
        ),
      ).toBe(true);
      expect(url.searchParams.get('sid')).toBe(SID);
    }
  });

  it('a Live Photo still: its motion part’s id and the signed URL of that video’s preview; other items have null for both', () => {
    const motionId = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    expect(present.mediaItem(item)).toMatchObject({ motionMediaItemId: null, motionUrl: null });
    const shown = present.mediaItem({ ...item, mediaItemCategory: 'live', motionMediaItemId: motionId });
    expect(shown).toMatchObject({ mediaItemCategory: 'live', motionMediaItemId: motionId });
    const url = new URL(shown.motionUrl!);
    expect(url.pathname).toBe(`/v1/mediaItems/${motionId}/preview`);
    expect(
      signer.verify(url.pathname, url.searchParams.get('exp') ?? undefined, url.searchParams.get('sig') ?? undefined, {
        sid: SID,
        uid: UID,
      }),
    ).toBe(true);
  });

  it('an album: exactly the fields of Album, its cover item presented too (or null)', () => {
    const shown = present.album(album);
    expect(Object.keys(shown)).toEqual(schemaProperties('Album'));
    expect(shown).toMatchObject({ name: 'Paris', shared: true, mediaItemsCount: 1, coverMediaItemId: item.id });
    // The cover is another user's item (the album's owner is not the caller here): its URLs carry the album.
    expect(shown.coverMediaItem).toEqual(present.albumItems([item], album.id)[0]);
    expect(present.albums([{ ...album, coverMediaItemId: null, coverMediaItem: null }])[0].coverMediaItem).toBeNull();
    expect(shown.owner).toEqual({ id: album.userId, name: '' });
    expect(present.albums([album], new Map([[album.userId, 'Alice']]))[0]).toMatchObject({
      role: 'owner',
      owner: { id: album.userId, name: 'Alice' },
    });
  });

  it("an album's items: the caller's own with session URLs, another user's scoped to the album (signed with it)", () => {
    const [others, own] = present.albumItems([item, { ...item, userId: UID }], album.id);
    const othersUrl = new URL(others!.thumbnailUrl);
    expect(othersUrl.searchParams.get('album')).toBe(album.id);
    const check = (u: URL, scope: { sid: string; uid: string; album?: string }) =>
      signer.verify(u.pathname, u.searchParams.get('exp') ?? undefined, u.searchParams.get('sig') ?? undefined, scope);
    expect(check(othersUrl, { sid: SID, uid: UID, album: album.id })).toBe(true);
    expect(check(othersUrl, { sid: SID, uid: UID })).toBe(false);
    const ownUrl = new URL(own!.thumbnailUrl);
    expect(ownUrl.searchParams.get('album')).toBeNull();
    expect(check(ownUrl, { sid: SID, uid: UID })).toBe(true);
  });

  it("a password-protected link's URLs carry its key (signed); downloads off: no original even with locations shared", () => {
    const key = '7e6d5c4b-3a29-4817-8f6e-5d4c3b2a1908';
    const link = { shareLocation: true, shareAllowDownload: true, shareKey: key };
    const shown = present.sharedMediaItem(item, album.id, link);
    const url = new URL(shown.sourceUrl!);
    expect(url.searchParams.get('sk')).toBe(key);
    const [exp, sig] = [url.searchParams.get('exp') ?? undefined, url.searchParams.get('sig') ?? undefined];
    expect(signer.verify(url.pathname, exp, sig, { share: album.id, key })).toBe(true);
    // Neither without the key nor with another one (a new password).
    expect(signer.verify(url.pathname, exp, sig, { share: album.id })).toBe(false);
    expect(signer.verify(url.pathname, exp, sig, { share: album.id, key: thing.id })).toBe(false);
    expect(present.sharedMediaItem(item, album.id, { ...link, shareAllowDownload: false }).sourceUrl).toBeNull();
    const visitorAlbum = present.sharedAlbum({
      ...album,
      shareLocation: true,
      shareExpiresAt: '2030-01-01T00:00:00.000Z',
    });
    expect(visitorAlbum).toMatchObject({ expiresAt: '2030-01-01T00:00:00.000Z', allowDownload: true });
    expect(visitorAlbum).not.toHaveProperty('shareKey');
    expect(present.sharedAlbum({ ...album, shareLocation: true, shareAllowDownload: false }).allowDownload).toBe(false);
    expect(present.album({ ...album, shareKey: key, sharePasswordSet: true })).not.toHaveProperty('shareKey');
  });

  it("a shared album's visitor shape: nothing of the owner, URLs signed for the album, no original while locations are hidden", () => {
    const motionId = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    const hidden = {
      ...item,
      metadata: { ...item.metadata, latitude: null, longitude: null },
      motionMediaItemId: motionId,
      status: 'FAILED' as const,
      failureReason: 'disk full at /srv/alice',
    };
    const shown = present.sharedAlbum({ ...album, coverMediaItem: hidden });
    expect(Object.keys(shown)).toEqual(schemaProperties('SharedAlbum'));
    expect(shown).not.toHaveProperty('userId');
    expect(shown).toMatchObject({
      id: album.id,
      name: 'Paris',
      description: 'June',
      mediaItemsCount: 1,
      coverMediaItemId: item.id,
    });
    const cover = shown.coverMediaItem!;
    expect(Object.keys(cover)).toEqual(schemaProperties('SharedMediaItem'));
    for (const field of [
      'userId',
      'filename',
      'favourite',
      'hidden',
      'deleted',
      'shared',
      'failureReason',
      'motionMediaItemId',
      'createdAt',
      'updatedAt',
    ])
      expect(cover).not.toHaveProperty(field);
    expect(cover).toMatchObject({
      sourceUrl: null,
      latitude: null,
      longitude: null,
      status: 'FAILED',
      cameraModel: 'iPhone 13',
    });
    for (const [shownUrl, id, variant] of [
      [cover.previewUrl, item.id, 'preview'],
      [cover.thumbnailUrl, item.id, 'thumbnail'],
      [cover.motionUrl!, motionId, 'preview'],
    ] as const) {
      const url = new URL(shownUrl);
      expect(url.pathname).toBe(`/v1/mediaItems/${id}/${variant}`);
      expect(url.searchParams.get('share')).toBe(album.id);
      const [exp, sig] = [url.searchParams.get('exp') ?? undefined, url.searchParams.get('sig') ?? undefined];
      expect(signer.verify(url.pathname, exp, sig, { share: album.id })).toBe(true);
      // With another claim (another album's, a session's) the signature opens nothing.
      expect(signer.verify(url.pathname, exp, sig, { sid: SID, uid: UID })).toBe(false);
      expect(signer.verify(url.pathname, exp, sig, { share: thing.id })).toBe(false);
      expect(url.searchParams.get('sid')).toBeNull();
    }
    // Locations shared: the original too, signed for the album.
    const withOriginal = present.sharedMediaItem(item, album.id, {
      shareLocation: true,
      shareAllowDownload: true,
      shareKey: null,
    });
    expect(new URL(withOriginal.sourceUrl!).searchParams.get('share')).toBe(album.id);
    expect(withOriginal).toMatchObject({ latitude: 48.85, longitude: 2.35 });
    expect(present.sharedAlbum({ ...album, coverMediaItemId: null, coverMediaItem: null }).coverMediaItem).toBeNull();
  });

  it('a place or thing: the fields of Place or Thing, its cover item presented from the items the media service answered', () => {
    const items = new Map([[item.id, item]]);
    const shown = present.place(place, items);
    expect(Object.keys(shown)).toEqual(schemaProperties('Place'));
    expect(shown).toMatchObject({
      name: 'Paris',
      state: 'Île-de-France',
      countryCode: 'FR',
      mediaItemsCount: 3,
      coverMediaItemId: item.id,
    });
    expect(shown.coverMediaItem).toEqual(present.mediaItem(item));
    expect(shown.thumbnailUrl).toBe(present.mediaItem(item).thumbnailUrl);
    const shownThing = present.things([thing], items)[0]!;
    expect(Object.keys(shownThing)).toEqual(schemaProperties('Thing'));
    expect(shownThing).toMatchObject({ name: 'Pizza', mediaItemsCount: 2, coverMediaItem: present.mediaItem(item) });
  });

  it('a place or thing without a cover, or whose cover the media service no longer has: cover id and thumbnail null, no cover item', () => {
    for (const shown of [
      present.place({ ...place, coverMediaItemId: null, mediaItemsCount: 0 }, new Map()),
      present.thing(thing, new Map()),
    ]) {
      expect(shown).toMatchObject({ coverMediaItemId: null, thumbnailUrl: null });
      expect(shown).not.toHaveProperty('coverMediaItem');
    }
  });

  it('a person: the fields of Person, the cover item and the cover face with its own signed thumbnail (`thumbnail`, alias `thumbnailUrl`); none when the media service no longer has the item', () => {
    const shown = present.person(person, new Map([[item.id, item]]));
    expect(Object.keys(shown)).toEqual(schemaProperties('Person'));
    expect(shown).toMatchObject({
      name: 'Alice',
      hidden: false,
      mediaItemsCount: 4,
      coverMediaItemId: item.id,
      coverMediaItemFaceId: person.coverFace!.id,
      coverMediaItem: present.mediaItem(item),
    });
    expect(shown.coverMediaItemFace).toMatchObject({
      id: person.coverFace!.id,
      mediaItemId: item.id,
      boundingBox: person.coverFace!.box,
    });
    // `thumbnail` as the product spec names it; `thumbnailUrl`, the alias, is the same URL.
    expect(shown.coverMediaItemFace!.thumbnailUrl).toBe(shown.coverMediaItemFace!.thumbnail);
    const url = new URL(shown.coverMediaItemFace!.thumbnail);
    expect(url.pathname).toBe(`/v1/explore/faces/${person.coverFace!.id}/thumbnail`);
    expect(
      signer.verify(url.pathname, url.searchParams.get('exp') ?? undefined, url.searchParams.get('sig') ?? undefined, {
        sid: SID,
        uid: UID,
      }),
    ).toBe(true);
    const gone = present.people([person], new Map())[0]!;
    expect(gone).toMatchObject({ coverMediaItemId: null, coverMediaItemFaceId: null, coverMediaItemFace: null });
    expect(gone).not.toHaveProperty('coverMediaItem');
  });
});
