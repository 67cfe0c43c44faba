/**
 * What an action on items changes in the list on screen, without asking the server again: which
 * flags change, and whether the items leave the list (e.g. trashed items leave every list but the
 * trash; unfavoured ones leave Favourites).
 */
import type { MediaItem, MediaView } from '../api/types';

export type BulkIntent = 'favourite' | 'unfavourite' | 'hide' | 'unhide' | 'trash' | 'restore' | 'removeFromAlbum';

export function patchFor(intent: BulkIntent): Partial<MediaItem> {
  switch (intent) {
    case 'favourite':
      return { favourite: true };
    case 'unfavourite':
      return { favourite: false };
    case 'hide':
      return { hidden: true };
    case 'unhide':
      return { hidden: false };
    case 'trash':
      return { deleted: true };
    case 'restore':
      return { deleted: false };
    case 'removeFromAlbum':
      return {};
  }
}

/** Whether items this intent was applied to stop belonging to the view. */
export function leavesView(intent: BulkIntent, view: MediaView['kind']): boolean {
  switch (intent) {
    case 'favourite':
      return false;
    case 'unfavourite':
      return view === 'favourites';
    case 'hide':
      // Albums (the owner's) and the trash show hidden items too.
      return view === 'library' || view === 'favourites';
    case 'unhide':
      return view === 'hidden';
    case 'trash':
      return view !== 'trash';
    case 'restore':
      return view === 'trash';
    case 'removeFromAlbum':
      return view === 'album';
  }
}

/** The toast after an action on `n` items. */
export function doneMessage(intent: BulkIntent, n: number): string {
  const what = n === 1 ? '1 item' : `${n.toLocaleString('en-GB')} items`;
  switch (intent) {
    case 'favourite':
      return `Added ${what} to favourites`;
    case 'unfavourite':
      return `Removed ${what} from favourites`;
    case 'hide':
      return `Hid ${what}`;
    case 'unhide':
      return `${what[0].toUpperCase()}${what.slice(1)} visible in the library again`;
    case 'trash':
      return `Moved ${what} to the trash`;
    case 'restore':
      return `Restored ${what}`;
    case 'removeFromAlbum':
      return `Removed ${what} from the album`;
  }
}
