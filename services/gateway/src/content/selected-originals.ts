import { locateContentRpc } from '@trove/proto-events';
import type { ContentLocationV1 } from '@trove/proto-events';
import { notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ZipEntrySource } from './album-zip';
import { checkMemberContent } from './shared-content';

/** The ZIP's entries per page handed to streamZip (its queue bound is per page). */
const PAGE = 100;

const gone = () => notFound('mediaitem not found');

/**
 * The originals of a selection, each checked before any byte goes out (so a wrong id is a 404, not
 * a cut archive): the caller's own items, or — with `albumId` — items that album shows the caller
 * (the member check a content URL of the album gets). A Live Photo's motion part follows its still
 * unless it was selected itself. Entries are named by file name; the archive makes them unique.
 */
export async function selectedOriginals(
  bus: Bus,
  userId: string,
  ids: string[],
  albumId?: string,
): Promise<ZipEntrySource[]> {
  const selected = [...new Set(ids)];
  const wanted = new Set(selected);
  const entries: ZipEntrySource[] = [];
  const add = (location: ContentLocationV1) => entries.push({ key: location.key, name: location.filename });

  for (const id of selected) {
    const location = await locateSelected(bus, userId, id, albumId);
    add(location);
    const motion = location.motionMediaItemId;
    if (!motion || wanted.has(motion)) continue;
    // The motion part goes with its still: the same user's, checked to be the still's.
    const part = await bus.request(locateContentRpc, { userId: location.userId, id: motion, variant: 'original' });
    if (part.stillMediaItemId !== id) throw gone();
    add(part);
  }
  return entries;
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
