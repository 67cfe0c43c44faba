/**
 * Multi-selection as in Google Photos and Immich: a click toggles one item and becomes the anchor;
 * a shift-click selects everything between the anchor and the clicked item (in display order); a
 * day's checkbox selects or clears the whole day.
 */
export interface Selection {
  ids: ReadonlySet<string>;
  /** The last item toggled by a plain click: where a shift-click range starts. */
  anchor: string | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

export type SelectionAction =
  | { type: 'toggle'; id: string }
  | { type: 'range'; id: string; order: readonly string[] }
  | { type: 'set'; ids: readonly string[]; selected: boolean }
  | { type: 'clear' }
  | { type: 'retain'; ids: ReadonlySet<string> };

export function selectionReducer(state: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case 'toggle': {
      const ids = new Set(state.ids);
      if (ids.has(action.id)) ids.delete(action.id);
      else ids.add(action.id);
      return { ids, anchor: action.id };
    }
    case 'range': {
      const to = action.order.indexOf(action.id);
      const from = state.anchor === null ? -1 : action.order.indexOf(state.anchor);
      if (to < 0) return state;
      if (from < 0) return selectionReducer(state, { type: 'toggle', id: action.id });
      const ids = new Set(state.ids);
      const [a, b] = from <= to ? [from, to] : [to, from];
      for (let i = a; i <= b; i++) ids.add(action.order[i]);
      return { ids, anchor: action.id };
    }
    case 'set': {
      const ids = new Set(state.ids);
      for (const id of action.ids) {
        if (action.selected) ids.add(id);
        else ids.delete(id);
      }
      return { ids, anchor: state.anchor };
    }
    case 'clear':
      return state.ids.size === 0 && state.anchor === null ? state : emptySelection;
    case 'retain': {
      // Items that left the list (trashed, hidden, removed) leave the selection too.
      const ids = new Set([...state.ids].filter((id) => action.ids.has(id)));
      return ids.size === state.ids.size
        ? state
        : { ids, anchor: state.anchor && action.ids.has(state.anchor) ? state.anchor : null };
    }
  }
}
