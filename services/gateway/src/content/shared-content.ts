import { checkMemberContentRpc, checkSharedContentRpc } from '@trove/proto-events';
import type { ContentLocationV1 } from '@trove/proto-events';
import { AppError, notFound } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { FeatureSource } from '../features/recent-features';
import type { ContentVariant } from './url-signer';

/** What a visitor's URL answers when it no longer opens: the same as an item that is not there. */
const gone = () => notFound('mediaitem not found');

/** Whether the owner of a shared album may share right now: their `sharing` feature (also off when switched off for everybody). */
export async function ownerShares(features: FeatureSource, ownerId: string): Promise<boolean> {
  return (await features.of(ownerId)).sharing;
}

/**
 * The serve-time check of a shared album's content URL (`share=<album id>` in the signed URL),
 * so that access ends the moment the album stops showing the item rather than when the URL
 * expires. Throws 404 `mediaitem not found` unless, right now:
 * - the item is neither hidden nor trashed (the media service's own flags, in `location`);
 * - the album is shared and holds the item (for a Live Photo's motion part: its still), neither
 *   trashed nor hidden (the library, one indexed lookup), and the item is the one its membership
 *   names (the owner's, or a contributor's who added it);
 * - the owner has the `sharing` feature;
 * - the link has no password, or the URL carries the key of its current one (`sk`: made for a
 *   visitor who unlocked it; a new password ends it);
 * - no original while the owner turned downloads off;
 * - while the album hides locations, the bytes are not the original's: no original at all, and no
 *   video served as it was uploaded when it has a GPS position (derived files carry no metadata).
 */
export async function checkSharedContent(
  deps: { bus: Bus; features: FeatureSource },
  { albumId, key }: { albumId: string; key: string | null },
  variant: ContentVariant,
  location: ContentLocationV1,
  mediaItemId: string,
): Promise<void> {
  if (location.hidden !== false || location.deleted !== false) throw gone();
  const member = location.stillMediaItemId ?? mediaItemId;
  let shared;
  try {
    shared = await deps.bus.request(checkSharedContentRpc, { albumId, mediaItemId: member });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw gone();
    throw err;
  }
  if (shared.itemUserId !== location.userId) throw gone();
  // The album's owner shares it (a contributor's items are shown under the owner's link and switches).
  if (!(await ownerShares(deps.features, shared.userId))) throw gone();
  // A link with a password: only URLs made for a visitor who unlocked it under the current one.
  if (shared.shareKey !== null && shared.shareKey !== key) throw gone();
  if (variant === 'original' && !shared.shareAllowDownload) throw gone();
  if (!shared.shareLocation && (variant === 'original' || (location.original !== false && location.located !== false)))
    throw gone();
}

/**
 * The serve-time check of a user's album-scoped content URL (`album=<id>` beside `sid` and `uid`:
 * another user's item in an album the user owns or is a member of), so that removing the member,
 * or the item leaving the album, ends the URL at once. Throws 404 `mediaitem not found` unless,
 * right now, the item is not trashed (nor hidden, unless it is the user's own), and the library
 * says the user reaches the album and it shows them the item, whose owner is the item's owner.
 */
export async function checkMemberContent(
  deps: { bus: Bus },
  albumId: string,
  userId: string,
  location: ContentLocationV1,
  mediaItemId: string,
): Promise<void> {
  if (location.deleted !== false || (location.hidden !== false && location.userId !== userId)) throw gone();
  let member;
  try {
    member = await deps.bus.request(checkMemberContentRpc, {
      userId,
      albumId,
      mediaItemId: location.stillMediaItemId ?? mediaItemId,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw gone();
    throw err;
  }
  if (member.itemUserId !== location.userId) throw gone();
}
