import { doneMessage, leavesView, patchFor } from './item-effects';
import { parseItemAction } from './item-actions.server';
import { parseView, viewQuery } from './media-views';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';

describe('what actions do to the list on screen', () => {
  it('trashed items leave every list but the trash; restored ones leave the trash', () => {
    for (const v of ['library', 'favourites', 'hidden', 'album'] as const) expect(leavesView('trash', v)).toBe(true);
    expect(leavesView('trash', 'trash')).toBe(false);
    expect(leavesView('restore', 'trash')).toBe(true);
    expect(leavesView('restore', 'library')).toBe(false);
  });

  it('hidden items stay in albums and the trash; unfavoured ones leave Favourites only', () => {
    expect(leavesView('hide', 'library')).toBe(true);
    expect(leavesView('hide', 'album')).toBe(false);
    expect(leavesView('hide', 'trash')).toBe(false);
    expect(leavesView('unhide', 'hidden')).toBe(true);
    expect(leavesView('unfavourite', 'favourites')).toBe(true);
    expect(leavesView('unfavourite', 'library')).toBe(false);
    expect(leavesView('favourite', 'favourites')).toBe(false);
  });

  it('patches the flags and says what happened', () => {
    expect(patchFor('favourite')).toEqual({ favourite: true });
    expect(patchFor('restore')).toEqual({ deleted: false });
    expect(doneMessage('trash', 1)).toBe('Moved 1 item to the trash');
    expect(doneMessage('unhide', 3)).toBe('3 items visible in the library again');
    expect(doneMessage('purge', 1200)).toBe('Deleted 1,200 items for good');
    expect(leavesView('purge', 'trash')).toBe(true);
    expect(parseItemAction({ intent: 'purge', ids: [ID, ID] })).toEqual({ intent: 'purge', ids: [ID] });
    expect(() => parseItemAction({ intent: 'purge', ids: [] })).toThrow('ids must be');
  });
});

describe('what the browser may ask for', () => {
  it('views', () => {
    expect(parseView(new URLSearchParams(''))).toEqual({ kind: 'library' });
    expect(parseView(new URLSearchParams(`view=album&album=${ID}`))).toEqual({ kind: 'album', albumId: ID });
    expect(parseView(new URLSearchParams('view=album&album=nope'))).toBeNull();
    expect(parseView(new URLSearchParams('view=users'))).toBeNull();
    expect(viewQuery({ kind: 'shared', albumId: ID })).toBe(`view=shared&album=${ID}`);
  });

  it('actions, de-duplicated and validated', () => {
    expect(parseItemAction({ intent: 'trash', ids: [ID, ID] })).toEqual({ intent: 'trash', ids: [ID] });
    expect(parseItemAction({ intent: 'describe', id: ID, description: ' ' })).toEqual({
      intent: 'describe',
      id: ID,
      description: null,
    });
    expect(() => parseItemAction({ intent: 'describe', id: ID, description: 'x'.repeat(2001) })).toThrow(/2000/);
    expect(() => parseItemAction({ intent: 'trash', ids: Array.from({ length: 1001 }, () => ID) })).toThrow(
      /1 to 1000/,
    );
    expect(() => parseItemAction({ intent: 'addToAlbum', albumId: 'x', ids: [ID] })).toThrow(/albumId/);
    expect(parseItemAction({ intent: 'edit', id: ID, latitude: 1, longitude: 2, favourite: true })).toEqual({
      intent: 'edit',
      id: ID,
      change: { latitude: 1, longitude: 2 },
    });
    expect(() => parseItemAction({ intent: 'edit', id: ID })).toThrow(/nothing to change/);
    expect(() => parseItemAction({ intent: 'edit', id: 'x', creationTime: null })).toThrow(/id/);
    expect(() => parseItemAction(null)).toThrow(/JSON object/);
  });
});
