import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { MediaItem } from '~/api/types';
import { useElementSize } from '~/lib/element-size';
import { dayKey, dayLabel } from '~/lib/format';
import type { SelectionAction } from '~/lib/selection';
import { groupConsecutive, layoutTimeline, targetRowHeightFor, visibleBlocks } from '~/lib/timeline-layout';
import type { Group } from '~/lib/timeline-layout';
import { Thumbnail } from './Thumbnail';
import { CheckToggle } from './ui/CheckToggle';
import './MediaGrid.css';

export interface GridSelection {
  ids: ReadonlySet<string>;
  dispatch(action: SelectionAction): void;
}

export interface MediaGridProps {
  items: MediaItem[];
  /** `day`: date headers, newest first; `none`: one block in the given order (albums). */
  grouping: 'day' | 'none';
  label: string;
  selection?: GridSelection;
  hrefFor(id: string): string;
  onOpen(id: string): void;
  /** Called when the user nears the end of what is loaded. */
  onNearEnd?(): void;
  /** After the viewer closes: scroll this item into view and focus it. */
  focusId?: string | null;
  /** A ready item's thumbnail failed to load. */
  onBroken?(id: string): void;
  /** Items shown with this label that cannot be selected (the add picker: those the album holds already). */
  locked?: { ids: ReadonlySet<string>; label: string };
}

const GAP = 4;

/**
 * The grid: day groups in justified rows, virtualised against the window's scroll (only the blocks
 * near the screen are in the DOM, so tens of thousands of items stay smooth), asking for more
 * items as the end comes near.
 */
export function MediaGrid({
  items,
  grouping,
  label,
  selection,
  hrefFor,
  onOpen,
  onNearEnd,
  focusId,
  onBroken,
  locked,
}: MediaGridProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 900 });

  useElementSize(ref, (el) => setWidth(Math.floor(el.clientWidth)));

  useEffect(() => {
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const el = ref.current;
        if (!el) return;
        const top = -el.getBoundingClientRect().top;
        setViewport((v) =>
          Math.abs(v.top - top) < 1 && v.height === window.innerHeight ? v : { top, height: window.innerHeight },
        );
      });
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);

  const groups: Group[] = useMemo(
    () =>
      grouping === 'day'
        ? groupConsecutive(
            items,
            (i) => dayKey(new Date(i.creationTime)),
            (k) => dayLabel(k),
          )
        : items.length
          ? [{ key: 'all', label: '', start: 0, end: items.length }]
          : [],
    [items, grouping],
  );
  const headerHeight = grouping === 'day' ? (width < 600 ? 44 : 52) : 0;
  const layout = useMemo(
    () =>
      layoutTimeline(items, groups, {
        width,
        targetRowHeight: targetRowHeightFor(width),
        gap: GAP,
        headerHeight,
        groupGap: grouping === 'day' ? 8 : 0,
      }),
    [items, groups, width, headerHeight, grouping],
  );

  const overscan = viewport.height;
  const [first, last] = visibleBlocks(
    layout.blocks,
    viewport.top - overscan,
    viewport.top + viewport.height + overscan,
  );

  // More items when the end of what is loaded is within two screens.
  useEffect(() => {
    if (onNearEnd && width > 0 && viewport.top + viewport.height * 3 >= layout.height) onNearEnd();
  }, [onNearEnd, viewport, layout.height, width]);

  // Back from the viewer: bring its last item into view and give it focus.
  useEffect(() => {
    if (!focusId || !ref.current) return;
    const index = items.findIndex((i) => i.id === focusId);
    if (index < 0) return;
    const block = layout.blocks.find((b) => b.kind === 'row' && b.tiles.some((t) => t.index === index));
    const gridTop = ref.current.getBoundingClientRect().top + window.scrollY;
    if (block && (block.y < viewport.top || block.y + block.height > viewport.top + viewport.height)) {
      window.scrollTo({ top: Math.max(0, gridTop + block.y - window.innerHeight / 3) });
    }
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() =>
        ref.current?.querySelector<HTMLElement>(`[data-id="${focusId}"] .tile-link`)?.focus({ preventScroll: true }),
      );
    });
    return () => cancelAnimationFrame(frame);
    // Only when the viewer hands focus back, not on every scroll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusId]);

  const order = useMemo(() => items.map((i) => i.id), [items]);
  const isLocked = useCallback((id: string) => locked?.ids.has(id) ?? false, [locked]);
  /** What a range or a day's check selects: the items that can be. */
  const selectableOrder = useMemo(() => (locked ? order.filter((id) => !locked.ids.has(id)) : order), [order, locked]);

  // Where each item sits (row block, tile), for moving the focus with the arrow keys.
  const positions = useMemo(() => {
    const out: { block: number; x: number; y: number; width: number }[] = [];
    layout.blocks.forEach((b, bi) => {
      if (b.kind === 'row') for (const t of b.tiles) out[t.index] = { block: bi, x: t.x, y: t.y, width: t.width };
    });
    return out;
  }, [layout]);

  const focusItem = useCallback(
    (index: number) => {
      const id = items[index]?.id;
      const pos = positions[index];
      if (!id || !pos || !ref.current) return;
      const find = () => ref.current?.querySelector<HTMLElement>(`[data-id="${id}"] .tile-link`);
      const el = find();
      if (el) {
        el.focus();
        return;
      }
      // Not rendered yet (virtualised): bring its row on screen, then focus it.
      const gridTop = ref.current.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: Math.max(0, gridTop + pos.y - window.innerHeight / 3) });
      requestAnimationFrame(() => requestAnimationFrame(() => find()?.focus()));
    },
    [items, positions],
  );

  /** Arrow keys move between tiles (up and down to the nearest tile of the next row); X selects. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (!target.classList.contains('tile-link') || e.altKey || e.ctrlKey || e.metaKey) return;
    const index = order.indexOf(target.closest('.tile')?.getAttribute('data-id') ?? '');
    if (index < 0) return;
    let to = -1;
    if (e.key === 'ArrowRight') to = index + 1;
    else if (e.key === 'ArrowLeft') to = index - 1;
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const here = positions[index];
      const step = e.key === 'ArrowDown' ? 1 : -1;
      let b = here.block + step;
      while (b >= 0 && b < layout.blocks.length && layout.blocks[b].kind !== 'row') b += step;
      const row = layout.blocks[b];
      if (row && row.kind === 'row') {
        const centre = here.x + here.width / 2;
        to = row.tiles.reduce(
          (best, t) =>
            Math.abs(t.x + t.width / 2 - centre) < Math.abs(positions[best].x + positions[best].width / 2 - centre)
              ? t.index
              : best,
          row.tiles[0].index,
        );
      }
    } else if ((e.key === 'x' || e.key === 'X') && selection) {
      e.preventDefault();
      if (!isLocked(order[index])) selection.dispatch({ type: 'toggle', id: order[index] });
      return;
    } else return;
    if (to < 0 || to >= items.length) return;
    e.preventDefault();
    focusItem(to);
  };
  const dispatch = selection?.dispatch;
  const onToggle = useCallback(
    (id: string, range: boolean) =>
      dispatch?.(range ? { type: 'range', id, order: selectableOrder } : { type: 'toggle', id }),
    [dispatch, selectableOrder],
  );
  const selecting = (selection?.ids.size ?? 0) > 0;

  const rendered = [];
  for (let b = first; b <= last; b++) {
    const block = layout.blocks[b];
    if (block.kind === 'header') {
      const g = groups[block.group];
      const ids = order.slice(g.start, g.end).filter((id) => !isLocked(id));
      const all = selection ? ids.every((id) => selection.ids.has(id)) : false;
      rendered.push(
        <div key={`h-${g.key}`} className="day-header" style={{ top: block.y, height: block.height }}>
          {selection && ids.length > 0 ? (
            <CheckToggle
              className="day-check"
              pressed={all}
              label={`${all ? 'Deselect' : 'Select'} all from ${g.label}`}
              iconSize={16}
              onClick={() => selection.dispatch({ type: 'set', ids, selected: !all })}
            />
          ) : null}
          <h2>{g.label}</h2>
        </div>,
      );
    } else {
      for (const t of block.tiles) {
        const item = items[t.index];
        const note = isLocked(item.id) ? locked?.label : undefined;
        rendered.push(
          <Thumbnail
            key={item.id}
            item={item}
            href={hrefFor(item.id)}
            x={t.x}
            y={t.y}
            width={t.width}
            height={t.height}
            selectable={!!selection && !note}
            note={note}
            selected={selection?.ids.has(item.id) ?? false}
            selecting={selecting}
            onOpen={onOpen}
            onToggle={onToggle}
            onBroken={onBroken}
          />,
        );
      }
    }
  }

  return (
    <div
      ref={ref}
      className="grid"
      role="region"
      aria-label={label}
      style={{ height: layout.height }}
      data-count={items.length}
      onKeyDown={onKeyDown}
    >
      {rendered}
    </div>
  );
}
