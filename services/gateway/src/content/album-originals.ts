import { extname } from 'node:path';
import { listAlbumMediaItemsRpc, listSharedAlbumMediaItemsRpc, locateContentRpc } from '@trove/proto-events';
import type { MediaItemV1 } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ZipEntrySource } from './album-zip';

/** Items listed per library call while a ZIP is made (the contract's largest page). */
const PAGE = 100;
/** The sharing calls' page bound (the contract's): a visitor's ZIP holds at most this many pages. */
const MAX_SHARED_PAGES = 1000;

/** When the item was taken, for the entry's time (the upload time when the file says nothing). */
export const takenAt = (item: MediaItemV1): Date => new Date(item.metadata.creationTime || item.createdAt);

/**
 * The ZIP of the album's owner or a member: each item's original under its file name, a Live Photo's
 * motion part after it under its own, page by page in the album's order (what the library lists for
 * `userId`: trashed items left out, others' hidden ones too). Each location is asked as the item's
 * own user — a contributor's item stays theirs — and only for items that list just gave.
 */
export async function* ownerOriginals(bus: Bus, userId: string, albumId: string): AsyncGenerator<ZipEntrySource[]> {
  for (let page = 1; ; page++) {
    const { items } = await bus.request(listAlbumMediaItemsRpc, { userId, id: albumId, page, limit: PAGE });
    const entries: ZipEntrySource[] = [];
    for (const item of items) {
      for (const id of [item.id, ...(item.motionMediaItemId ? [item.motionMediaItemId] : [])]) {
        const location = await bus.request(locateContentRpc, { userId: item.userId, id, variant: 'original' });
        entries.push({ key: location.key, name: location.filename, mtime: takenAt(item) });
      }
    }
    yield entries;
    if (items.length < PAGE) return;
  }
}

/**
 * A visitor's ZIP: what the link shows (neither trashed nor hidden: each page asked of the library
 * again, so a link unshared or expired midway stops the archive), numbered in the album's order
 * with the original's extension — visitors are not told the owner's file names. Each location is
 * checked to be the listed item's own (the owner's or a contributor's), neither hidden nor trashed,
 * as a visitor's content URL would be.
 */
export async function* visitorOriginals(bus: Bus, albumId: string): AsyncGenerator<ZipEntrySource[]> {
  let n = 0;
  for (let page = 1; page <= MAX_SHARED_PAGES; page++) {
    const { items } = await bus.request(listSharedAlbumMediaItemsRpc, { id: albumId, page, limit: PAGE });
    const entries: ZipEntrySource[] = [];
    for (const item of items) {
      const number = String(++n).padStart(4, '0');
      const parts = [
        { id: item.id, suffix: '' },
        ...(item.motionMediaItemId ? [{ id: item.motionMediaItemId, suffix: '-motion' }] : []),
      ];
      for (const { id, suffix } of parts) {
        const location = await bus.request(locateContentRpc, { id, variant: 'original' });
        if (location.userId !== item.userId || location.hidden !== false || location.deleted !== false)
          throw notFound('mediaitem not found');
        const ext = extname(location.filename).toLowerCase();
        entries.push({ key: location.key, name: `${number}${suffix}${ext}`, mtime: takenAt(item) });
      }
    }
    yield entries;
    if (items.length < PAGE) return;
  }
}
