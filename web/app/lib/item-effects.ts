/**
 * What an action on items changes in the list on screen, without asking the server again: which
 * flags change, and whether the items leave the list (e.g. trashed items leave every list but the
 * trash; unfavoured ones leave Favourites).
 */
import type { MediaItem, MediaView } from '~/api/types';

export type BulkIntent =
  'favourite' | 'unfavourite' | 'hide' | 'unhide' | 'trash' | 'restore' | 'purge' | 'removeFromAlbum';

interface Effect {
  patch: Partial<MediaItem>;
  /** Whether the items stop belonging to a view. */
  leaves(view: MediaView['kind']): boolean;
  /** The toast, given "1 item" or "3 items". */
  done(what: string): string;
}

const EFFECTS: Record<BulkIntent, Effect> = {
  favourite: { patch: { favourite: true }, leaves: () => false, done: (what) => `Added ${what} to favourites` },
  unfavourite: {
    patch: { favourite: false },
    leaves: (view) => view === 'favourites',
    done: (what) => `Removed ${what} from favourites`,
  },
  // Albums (the owner's) and the trash show hidden items too; explore and search leave them out.
  hide: {
    patch: { hidden: true },
    leaves: (view) => view !== 'album' && view !== 'trash' && view !== 'hidden' && view !== 'shared',
    done: (what) => `Hid ${what}`,
  },
  unhide: {
    patch: { hidden: false },
    leaves: (view) => view === 'hidden',
    done: (what) => `${what[0].toUpperCase()}${what.slice(1)} visible in the library again`,
  },
  trash: { patch: { deleted: true }, leaves: (view) => view !== 'trash', done: (what) => `Moved ${what} to the trash` },
  restore: { patch: { deleted: false }, leaves: (view) => view === 'trash', done: (what) => `Restored ${what}` },
  // Deleted for good: gone from every list.
  purge: { patch: {}, leaves: () => true, done: (what) => `Deleted ${what} for good` },
  removeFromAlbum: { patch: {}, leaves: (view) => view === 'album', done: (what) => `Removed ${what} from the album` },
};

export function patchFor(intent: BulkIntent): Partial<MediaItem> {
  return EFFECTS[intent].patch;
}

/** Whether items this intent was applied to stop belonging to the view. */
export function leavesView(intent: BulkIntent, view: MediaView['kind']): boolean {
  return EFFECTS[intent].leaves(view);
}

/** The toast after an action on `n` items. */
export function doneMessage(intent: BulkIntent, n: number): string {
  return EFFECTS[intent].done(n === 1 ? '1 item' : `${n.toLocaleString('en-GB')} items`);
}
