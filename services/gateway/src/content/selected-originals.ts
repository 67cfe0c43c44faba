import { getMediaItemsRpc, locateContentRpc } from '@trove/proto-events';
import type { ContentLocationV1 } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ZipEntrySource } from './album-zip';
import { takenAt } from './album-originals';
import { checkMemberContent } from './shared-content';

/** The ZIP's entries per page handed to streamZip (its queue bound is per page). */
const PAGE = 100;

const gone = () => notFound('mediaitem not found');

/**
 * The originals of a selection, each checked before any byte goes out (so a wrong id is a 404, not
 * a cut archive): the caller's own items, or — with `albumId` — items that album shows the caller
 * (the member check a content URL of the album gets). A Live Photo's motion part follows its still
 * unless it was selected itself. Entries are named by file name (the archive makes them unique) and
 * dated when the item was taken.
 */
export async function selectedOriginals(
  bus: Bus,
  userId: string,
  ids: string[],
  albumId?: string,
): Promise<ZipEntrySource[]> {
  const selected = [...new Set(ids)];
  const wanted = new Set(selected);
  /** Each original with the item whose time it is given (a motion part: its still's). */
  const found: Array<{ location: ContentLocationV1; itemId: string }> = [];

  for (const id of selected) {
    const location = await locateSelected(bus, userId, id, albumId);
    found.push({ location, itemId: location.stillMediaItemId ?? id });
    const motion = location.motionMediaItemId;
    if (!motion || wanted.has(motion)) continue;
    // The motion part goes with its still: the same user's, checked to be the still's.
    const part = await bus.request(locateContentRpc, { userId: location.userId, id: motion, variant: 'original' });
    if (part.stillMediaItemId !== id) throw gone();
    found.push({ location: part, itemId: id });
  }
  const taken = await takenTimes(bus, found);
  return found.map(({ location, itemId }) => ({
    key: location.key,
    name: location.filename,
    ...(taken.has(itemId) ? { mtime: taken.get(itemId) } : {}),
  }));
}

/** When each item was taken (the upload time when its file says nothing): one call per owner. */
async function takenTimes(
  bus: Bus,
  found: Array<{ location: ContentLocationV1; itemId: string }>,
): Promise<Map<string, Date>> {
  const byOwner = new Map<string, Set<string>>();
  for (const { location, itemId } of found)
    byOwner.set(location.userId, (byOwner.get(location.userId) ?? new Set()).add(itemId));
  const taken = new Map<string, Date>();
  for (const [owner, itemIds] of byOwner) {
    const { items } = await bus.request(getMediaItemsRpc, { userId: owner, ids: [...itemIds] });
    for (const item of items) taken.set(item.id, takenAt(item));
  }
  return taken;
}

/** One selected item's original, if the caller may have it (else 404 `mediaitem not found`). */
async function locateSelected(bus: Bus, userId: string, id: string, albumId?: string): Promise<ContentLocationV1> {
  if (albumId === undefined) return bus.request(locateContentRpc, { userId, id, variant: 'original' });
  const location = await bus.request(locateContentRpc, { id, variant: 'original' });
  await checkMemberContent({ bus }, albumId, userId, location, id);
  return location;
}

/** Entries as the pages streamZip reads. */
export async function* inPages(entries: ZipEntrySource[]): AsyncGenerator<ZipEntrySource[]> {
  for (let i = 0; i < entries.length; i += PAGE) yield entries.slice(i, i + PAGE);
}
