/** Test data shaped exactly like the API's (typed from the generated schema). */
import type { Album, MediaItem } from '../app/api/types';

let n = 0;

/** A uuid-shaped id, unique per call. */
export function uuid(): string {
  n++;
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export function makeItem(over: Partial<MediaItem> = {}): MediaItem {
  const id = over.id ?? uuid();
  return {
    id,
    userId: '11111111-1111-4111-8111-111111111111',
    filename: 'IMG_0001.jpg',
    description: null,
    mimeType: 'image/jpeg',
    placeholder: null,
    sourceUrl: `http://127.0.0.1:5001/v1/mediaItems/${id}/original?exp=1&sig=s`,
    previewUrl: `http://127.0.0.1:5001/v1/mediaItems/${id}/preview?exp=1&sig=s`,
    thumbnailUrl: `http://127.0.0.1:5001/v1/mediaItems/${id}/thumbnail?exp=1&sig=s`,
    favourite: false,
    shared: false,
    hidden: false,
    deleted: false,
    status: 'READY',
    failureReason: null,
    mediaItemType: 'photo',
    mediaItemCategory: 'default',
    motionMediaItemId: null,
    motionUrl: null,
    width: 4000,
    height: 3000,
    size: 3_481_205,
    creationTime: '2024-06-24T18:15:12.000Z',
    latitude: null,
    longitude: null,
    cameraMake: null,
    cameraModel: null,
    focalLength: null,
    apertureFNumber: null,
    isoEquivalent: null,
    exposureTime: null,
    fps: null,
    createdAt: '2024-06-24T19:02:41.000Z',
    updatedAt: '2024-06-24T19:02:55.000Z',
    ...over,
  };
}

export function makeAlbum(over: Partial<Album> = {}): Album {
  return {
    id: over.id ?? uuid(),
    userId: '11111111-1111-4111-8111-111111111111',
    role: 'owner',
    owner: { id: '11111111-1111-4111-8111-111111111111', name: 'Test User' },
    name: 'Summer',
    description: null,
    shared: false,
    shareLocation: false,
    shareExpiresAt: null,
    shareAllowDownload: true,
    sharePasswordSet: false,
    hidden: false,
    coverMediaItemId: null,
    coverMediaItem: null,
    mediaItemsCount: 0,
    createdAt: '2024-06-25T08:00:00.000Z',
    updatedAt: '2024-06-25T08:30:00.000Z',
    ...over,
  };
}

/** Items newest first, one per hour before `from`. */
export function itemsNewestFirst(count: number, from = Date.parse('2024-06-24T12:00:00Z')): MediaItem[] {
  return Array.from({ length: count }, (_, i) =>
    makeItem({ creationTime: new Date(from - i * 3_600_000).toISOString() }),
  );
}
