import { useLocation, useNavigate, useRevalidator, useSearchParams } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import type { ReactNode } from 'react';
import type { MediaItem, MediaView } from '~/api/types';
import { useMediaList } from '~/hooks/useMediaList';
import type { Timeline } from '~/hooks/useTimeline';
import { postJson } from '~/lib/fetch-json.client';
import { doneMessage, leavesView, patchFor } from '~/lib/item-effects';
import type { BulkIntent } from '~/lib/item-effects';
import { isTypingTarget } from '~/lib/keyboard';
import { downloadSelection } from '~/lib/selection-download.client';
import { viewQuery } from '~/lib/media-views';
import { emptySelection, selectionReducer } from '~/lib/selection';
import { AlbumPicker } from './AlbumPicker';
import { MediaGrid } from './MediaGrid';
import { MemoriesStrip, useMemories } from './Memories';
import { SelectionBar } from './SelectionBar';
import { TimelineGrid } from './TimelineGrid';
import type { BulkAction } from './SelectionBar';
import { Button, IconButton, TextButton } from './ui/Button';
import { FormError } from './ui/FormError';
import { Modal } from './ui/Modal';
import { Spinner } from './ui/Spinner';
import { useToast } from './ui/Toasts';
import { useUploadAddedToAlbum, useUploadCreated } from './Uploads';
import { Viewer } from './Viewer';
import type { ViewerActions } from './Viewer';
import './MediaBrowser.css';

const NONE: MediaItem[] = [];

export interface MediaBrowserProps {
  view: MediaView;
  /** The loader's first page. */
  initial: MediaItem[];
  /** An item the URL asked for that is not on the first page (deep link). */
  focus?: MediaItem | null;
  /** Show the "On this day" strip (items from this day in earlier years); the viewer steps through it with `?from=memories`. */
  memories?: boolean;
  label: string;
  /** What shows instead of the grid when the list is empty (an EmptyState). */
  empty: ReactNode;
  /** What a selection can do here; none → no selection (shared albums). */
  bulk?: BulkAction[];
  /**
   * A list that holds other users' items too (an album shared between members): the signed-in user's
   * id, the names of the others by id, and what a selection holding another user's item can do (the
   * API answers 404 for the rest). Another user's item opens read-only, saying who added it.
   */
  others?: { me: string; names: Record<string, string>; bulk: BulkAction[] };
  /** Called after items were added to an album or the album cover changed (album page refreshes). */
  onAlbumChanged?(): void;
  /** Items created by uploads show up here (the library). */
  showUploads?: boolean;
  /**
   * The Photos page: the whole library as a virtual timeline (useTimeline) instead of a list paged
   * from the top; it holds only the part near the screen, so a selection outlives its items' unloading.
   */
  timeline?: Timeline;
}

/**
 * A list of media items as a page: the grid, selection and its bulk actions, and the viewer
 * (`?item=<id>` in the URL, so it can be linked, and Back closes it).
 */
export function MediaBrowser({
  view,
  initial,
  focus,
  memories: withMemories = false,
  label,
  empty,
  bulk = [],
  others,
  onAlbumChanged,
  showUploads = false,
  timeline,
}: MediaBrowserProps) {
  const readOnly = view.kind === 'shared';
  const order = view.kind === 'album' || view.kind === 'shared' ? 'as-given' : 'newest';
  const paged = useMediaList({
    viewQuery: viewQuery(view),
    initial: timeline ? NONE : initial,
    order,
    poll: !readOnly && !timeline,
  });
  const list = timeline ?? paged;
  const [selection, dispatch] = useReducer(selectionReducer, emptySelection);
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useToast();
  const revalidator = useRevalidator();
  const [picker, setPicker] = useState<string[] | null>(null);
  /** Items waiting for "Delete for good" to be confirmed. */
  const [purging, setPurging] = useState<string[] | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [extra, setExtra] = useState<MediaItem[]>([]);
  const [busy, setBusy] = useState(false);

  // Memories change as uploads finish processing (their real dates are known then): fetch again when more items are ready.
  // (The timeline loads and drops items as it scrolls: there, the library's count less the items processing.)
  const readyCount = useMemo(
    () =>
      timeline
        ? timeline.months.reduce((n, m) => n + m.count, 0) -
          list.items.filter((i) => i.status === 'PROCESSING' || i.status === 'UNSPECIFIED').length
        : list.items.filter((i) => i.status === 'READY').length,
    [list.items, timeline],
  );
  const [memories, setMemories] = useMemories(withMemories, readyCount);

  useUploadCreated((id) => {
    if (showUploads) list.addById([id]);
  });
  // An album's page shows what was uploaded into it (see useUploadTarget).
  useUploadAddedToAlbum(view.kind === 'album' ? view.albumId : null, (id) => {
    list.addById([id]);
    onAlbumChanged?.();
  });

  // Items that left the list leave the selection (the timeline unloads items far away: they stay selected).
  const present = useMemo(() => new Set(list.items.map((i) => i.id)), [list.items]);
  useEffect(() => {
    if (!timeline) dispatch({ type: 'retain', ids: present });
  }, [present, timeline]);

  // --- the viewer ---------------------------------------------------------------------------
  const itemId = params.get('item');
  const fromMemories = params.get('from') === 'memories' && memories.length > 0;
  const context = fromMemories ? memories : list.items;
  const index = itemId ? context.findIndex((i) => i.id === itemId) : -1;
  const current = itemId
    ? index >= 0
      ? context[index]
      : ([...extra, ...(focus ? [focus] : [])].find((i) => i.id === itemId) ?? null)
    : null;
  const prev = index > 0 ? context[index - 1] : null;
  const next = index >= 0 && index < context.length - 1 ? context[index + 1] : null;
  // Stepping near the end of what is loaded loads more.
  useEffect(() => {
    if (!fromMemories && index >= 0 && index >= list.items.length - 3) list.loadMore();
  }, [index, fromMemories, list]);

  const openItem = useCallback(
    (id: string, from?: 'memories') => {
      setParams(
        (p) => {
          const n = new URLSearchParams(p);
          n.set('item', id);
          if (from) n.set('from', from);
          else n.delete('from');
          return n;
        },
        { preventScrollReset: true, state: { viewer: true } },
      );
    },
    [setParams],
  );
  const stepTo = useCallback(
    (id: string) =>
      setParams(
        (p) => {
          const n = new URLSearchParams(p);
          n.set('item', id);
          return n;
        },
        { replace: true, preventScrollReset: true, state: location.state },
      ),
    [setParams, location.state],
  );
  const closeViewer = useCallback(() => {
    if (itemId) setFocusId(itemId);
    if ((location.state as { viewer?: boolean } | null)?.viewer) navigate(-1);
    else
      setParams(
        (p) => {
          const n = new URLSearchParams(p);
          n.delete('item');
          n.delete('from');
          return n;
        },
        { replace: true, preventScrollReset: true },
      );
  }, [itemId, location.state, navigate, setParams]);

  // --- actions ------------------------------------------------------------------------------
  const localUpdate = useCallback(
    (ids: string[], patch: Partial<MediaItem>) => {
      const byId = new Set(ids);
      const changed = (items: MediaItem[]) => items.filter((i) => byId.has(i.id)).map((i) => ({ ...i, ...patch }));
      list.update(changed(list.items));
      setExtra((x) => [...x.filter((i) => !byId.has(i.id)), ...changed([...(focus ? [focus] : []), ...x])]);
      setMemories((m) => (m.some((i) => byId.has(i.id)) ? m.map((i) => (byId.has(i.id) ? { ...i, ...patch } : i)) : m));
    },
    [list, focus, setMemories],
  );

  const runBulk = useCallback(
    async (intent: BulkIntent, ids: string[]) => {
      if (ids.length === 0) return;
      setBusy(true);
      try {
        await postJson('/api/items', view.kind === 'album' ? { intent, ids, albumId: view.albumId } : { intent, ids });
        localUpdate(ids, patchFor(intent));
        // Memories leave out hidden and trashed items, like the library.
        if (intent === 'trash' || intent === 'hide') setMemories((m) => m.filter((i) => !ids.includes(i.id)));
        if (leavesView(intent, view.kind)) {
          // The viewer moves on to a neighbour when its item leaves.
          if (itemId && ids.includes(itemId)) {
            const n = next ?? prev;
            if (n && !ids.includes(n.id)) stepTo(n.id);
            else closeViewer();
          }
          list.remove(ids);
          dispatch({ type: 'set', ids, selected: false });
        }
        notify(
          doneMessage(intent, ids.length),
          intent === 'trash'
            ? { link: { to: '/trash', label: 'Open trash' } }
            : intent === 'hide'
              ? { link: { to: '/hidden', label: 'Open hidden' } }
              : undefined,
        );
        if (view.kind === 'album') onAlbumChanged?.();
      } catch (err) {
        notify(err instanceof Error ? err.message : 'That did not work.', { tone: 'error' });
      } finally {
        setBusy(false);
      }
    },
    [view, localUpdate, setMemories, itemId, next, prev, stepTo, closeViewer, list, notify, onAlbumChanged],
  );

  const setCover = useCallback(
    async (id: string) => {
      if (view.kind !== 'album') return;
      try {
        await postJson('/api/items', { intent: 'setCover', albumId: view.albumId, id });
        notify('Album cover changed');
        onAlbumChanged?.();
        revalidator.revalidate();
      } catch (err) {
        notify(err instanceof Error ? err.message : 'That did not work.', { tone: 'error' });
      }
    },
    [view, notify, onAlbumChanged, revalidator],
  );

  const isOthers = useCallback((item: MediaItem) => !!others && item.userId !== others.me, [others]);
  const viewerActions: ViewerActions | undefined =
    readOnly || (current && isOthers(current))
      ? undefined
      : {
          favourite: (item, value) => void runBulk(value ? 'favourite' : 'unfavourite', [item.id]),
          hide: (item, value) => void runBulk(value ? 'hide' : 'unhide', [item.id]),
          trash: (item) => void runBulk('trash', [item.id]),
          restore: (item) => void runBulk('restore', [item.id]),
          purge: view.kind === 'trash' ? (item) => setPurging([item.id]) : undefined,
          describe: async (item, description) => {
            await postJson('/api/items', { intent: 'describe', id: item.id, description });
            localUpdate([item.id], { description });
          },
          edit: async (item, change) => {
            // The item as the API now has it (a reset date or place is the file's again); the list keeps
            // its order until it is loaded again.
            const { item: fresh } = await postJson<{ item: MediaItem }>('/api/items', {
              intent: 'edit',
              id: item.id,
              ...change,
            });
            localUpdate([item.id], fresh);
            notify('Saved');
          },
          addToAlbum: (item) => setPicker([item.id]),
        };

  const selectedIds = useMemo(
    () => (timeline ? [...selection.ids] : list.items.filter((i) => selection.ids.has(i.id)).map((i) => i.id)),
    [list.items, selection.ids, timeline],
  );
  const idOrder = useMemo(() => list.items.map((i) => i.id), [list.items]);
  // With another user's item selected, only what may be done to theirs is offered.
  const selectionActions = useMemo(() => {
    const selectsOthers = list.items.some((i) => selection.ids.has(i.id) && isOthers(i));
    const allowed = selectsOthers ? bulk.filter((a) => others?.bulk.includes(a)) : bulk;
    return allowed.filter((a) => a !== 'setCover' || selectedIds.length === 1);
  }, [list.items, selection.ids, isOthers, bulk, others, selectedIds.length]);
  const download = useCallback(
    async (ids: string[]) => {
      setBusy(true);
      try {
        await downloadSelection(ids, view.kind === 'album' ? view.albumId : undefined, () =>
          notify('The download did not start. Try again.', { tone: 'error' }),
        );
        notify(`Downloading ${ids.length === 1 ? '1 item' : `${ids.length.toLocaleString('en-GB')} items`} as a ZIP`);
        dispatch({ type: 'clear' });
      } catch (err) {
        notify(err instanceof Error ? err.message : 'That did not work.', { tone: 'error' });
      } finally {
        setBusy(false);
      }
    },
    [view, notify],
  );
  const onBulk = (action: BulkAction) => {
    if (action === 'addToAlbum') setPicker(selectedIds);
    else if (action === 'download') void download(selectedIds);
    else if (action === 'purge') setPurging(selectedIds);
    else if (action === 'setCover') void setCover(selectedIds[0]).then(() => dispatch({ type: 'clear' }));
    else void runBulk(action, selectedIds);
  };

  // Esc clears the selection; Ctrl+A selects everything loaded.
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTypingTarget(e.target) || document.querySelector('dialog[open]')) return;
      if (e.key === 'Escape' && selection.ids.size > 0) {
        e.preventDefault();
        dispatch({ type: 'clear' });
      } else if ((e.ctrlKey || e.metaKey) && (e.key === 'a' || e.key === 'A') && bulk.length > 0) {
        e.preventDefault();
        dispatch({ type: 'set', ids: list.items.map((i) => i.id), selected: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly, selection.ids.size, bulk.length, list.items]);

  const hrefFor = useCallback(
    (id: string) => {
      const n = new URLSearchParams(params);
      n.set('item', id);
      n.delete('from');
      return `?${n.toString()}`;
    },
    [params],
  );
  const onOpen = useCallback((id: string) => openItem(id), [openItem]);

  return (
    <>
      {selectedIds.length > 0 ? (
        <SelectionBar
          count={selectedIds.length}
          actions={selectionActions}
          busy={busy}
          onAction={onBulk}
          onClear={() => dispatch({ type: 'clear' })}
        />
      ) : null}

      {memories.length > 0 ? <MemoriesStrip items={memories} onOpen={(id) => openItem(id, 'memories')} /> : null}

      {list.items.length === 0 && list.complete ? (
        empty
      ) : timeline ? (
        <TimelineGrid
          timeline={timeline}
          label={label}
          selection={bulk.length > 0 ? { ids: selection.ids, dispatch } : undefined}
          order={idOrder}
          hrefFor={hrefFor}
          onOpen={onOpen}
          focusId={itemId ? null : focusId}
          onBroken={list.refreshBroken}
        />
      ) : (
        <MediaGrid
          items={list.items}
          grouping={order === 'newest' ? 'day' : 'none'}
          label={label}
          selection={bulk.length > 0 ? { ids: selection.ids, dispatch } : undefined}
          hrefFor={hrefFor}
          onOpen={onOpen}
          onNearEnd={list.complete ? undefined : list.loadMore}
          focusId={itemId ? null : focusId}
          onBroken={readOnly ? undefined : list.refreshBroken}
        />
      )}
      {list.loading && !timeline ? (
        <p className="loading-more" role="status">
          <Spinner /> Loading more…
        </p>
      ) : null}
      {list.error ? (
        <FormError className="load-error">
          {list.error} <TextButton onClick={list.loadMore}>Try again</TextButton>
        </FormError>
      ) : null}

      {current ? (
        <Viewer
          key="viewer"
          item={current}
          prev={prev}
          next={next}
          position={index >= 0 ? { index, total: context.length, more: !fromMemories && !list.complete } : undefined}
          onNavigate={stepTo}
          onClose={closeViewer}
          actions={viewerActions}
          addedBy={isOthers(current) ? (others?.names[current.userId] ?? 'Someone else') : undefined}
          extra={
            bulk.includes('setCover') && (!isOthers(current) || others?.bulk.includes('setCover')) ? (
              <IconButton
                icon="cover"
                label="Set as album cover"
                title="Set as album cover"
                onClick={() => void setCover(current.id)}
              />
            ) : null
          }
        />
      ) : null}

      {purging ? (
        <Modal
          title={`Delete ${purging.length === 1 ? 'this item' : `${purging.length.toLocaleString('en-GB')} items`} for good?`}
          onClose={() => setPurging(null)}
        >
          <p>
            {purging.length === 1
              ? 'Its original file and everything made from it are'
              : 'Their original files and everything made from them are'}{' '}
            deleted now. This cannot be undone.
          </p>
          <div className="form-actions">
            <Button onClick={() => setPurging(null)}>Cancel</Button>
            <Button
              variant="danger"
              onClick={() => {
                void runBulk('purge', purging);
                setPurging(null);
              }}
            >
              Delete for good
            </Button>
          </div>
        </Modal>
      ) : null}

      {picker ? (
        <AlbumPicker
          ids={picker}
          onClose={() => setPicker(null)}
          onAdded={(album, count) => {
            setPicker(null);
            dispatch({ type: 'clear' });
            notify(`Added ${count === 1 ? '1 item' : `${count} items`} to ${album.name}`, {
              link: { to: `/albums/${album.id}`, label: 'Open album' },
            });
            onAlbumChanged?.();
          }}
        />
      ) : null}
    </>
  );
}
