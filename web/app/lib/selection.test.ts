import { emptySelection, selectionReducer } from './selection';
import type { Selection, SelectionAction } from './selection';

const order = ['a', 'b', 'c', 'd', 'e'];
const run = (...actions: SelectionAction[]) => actions.reduce<Selection>(selectionReducer, emptySelection);
const ids = (s: Selection) => [...s.ids].sort();

describe('selection', () => {
  it('toggles one item and makes it the anchor', () => {
    const s = run({ type: 'toggle', id: 'b' });
    expect(ids(s)).toEqual(['b']);
    expect(s.anchor).toBe('b');
    expect(ids(run({ type: 'toggle', id: 'b' }, { type: 'toggle', id: 'b' }))).toEqual([]);
  });

  it('shift-click selects the range from the anchor, forwards and backwards', () => {
    expect(ids(run({ type: 'toggle', id: 'b' }, { type: 'range', id: 'd', order }))).toEqual(['b', 'c', 'd']);
    expect(ids(run({ type: 'toggle', id: 'd' }, { type: 'range', id: 'a', order }))).toEqual(['a', 'b', 'c', 'd']);
    // Ranges add to what is selected.
    expect(
      ids(run({ type: 'toggle', id: 'a' }, { type: 'toggle', id: 'e' }, { type: 'range', id: 'd', order })),
    ).toEqual(['a', 'd', 'e']);
  });

  it('a shift-click without an anchor selects just that item', () => {
    expect(ids(run({ type: 'range', id: 'c', order }))).toEqual(['c']);
    expect(run({ type: 'range', id: 'zz', order })).toBe(emptySelection);
  });

  it('selects or clears many at once (a day), clears all, and drops items that left the list', () => {
    const s = run({ type: 'set', ids: ['a', 'b', 'c'], selected: true }, { type: 'set', ids: ['b'], selected: false });
    expect(ids(s)).toEqual(['a', 'c']);
    expect(run({ type: 'toggle', id: 'a' }, { type: 'clear' })).toBe(emptySelection);
    const kept = selectionReducer(run({ type: 'toggle', id: 'a' }, { type: 'toggle', id: 'c' }), {
      type: 'retain',
      ids: new Set(['c', 'd']),
    });
    expect(ids(kept)).toEqual(['c']);
    expect(kept.anchor).toBe('c');
    const same = run({ type: 'toggle', id: 'a' });
    expect(selectionReducer(same, { type: 'retain', ids: new Set(['a']) })).toBe(same);
  });
});
