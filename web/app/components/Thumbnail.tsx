import { memo, useState } from 'react';
import type { MouseEvent } from 'react';
import type { MediaItem } from '~/api/types';
import { altText } from '~/lib/format';
import { placeholderDataUrl } from '~/lib/thumbhash';
import { Badge } from './ui/Badge';
import { CheckToggle } from './ui/CheckToggle';
import { Spinner } from './ui/Spinner';
import './Thumbnail.css';

export interface ThumbnailProps {
  item: MediaItem;
  href: string;
  x: number;
  y: number;
  width: number;
  height: number;
  selectable: boolean;
  selected: boolean;
  /** Some item is selected: a click selects instead of opening. */
  selecting: boolean;
  onOpen(id: string): void;
  onToggle(id: string, range: boolean): void;
  /** The thumbnail of a ready item did not load (e.g. its signed URL expired): ask for fresh URLs. */
  onBroken?(id: string): void;
  /** Why the item is shown dimmed and cannot be selected ("In this album"), written over it. */
  note?: string;
}

const isPending = (item: Pick<MediaItem, 'status'>) => item.status === 'PROCESSING' || item.status === 'UNSPECIFIED';
/** Processing, or could not be processed: the tile shows a status bar along its bottom edge. */
export const showsStatus = (item: Pick<MediaItem, 'status'>): boolean => isPending(item) || item.status === 'FAILED';
/** How high that bar's text reaches above the tile's bottom edge: what sits there goes above it. */
export const STATUS_BAR_HEIGHT = 26;

/**
 * One tile of the grid: a box of the item's exact size (no layout shift) showing the ThumbHash
 * placeholder, the thumbnail fading in over it once loaded, badges (video, favourite), the
 * processing state, and a selection check.
 */
export const Thumbnail = memo(function Thumbnail({
  item,
  href,
  x,
  y,
  width,
  height,
  selectable,
  selected,
  selecting,
  onOpen,
  onToggle,
  onBroken,
  note,
}: ThumbnailProps) {
  // Keyed by what is shown, so a new URL or a finished processing fades in (or is tried) afresh.
  const shown = `${item.status} ${item.thumbnailUrl}`;
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  const [brokenKey, setBrokenKey] = useState<string | null>(null);
  const loaded = loadedKey === shown;
  const broken = brokenKey === shown;
  const placeholder = placeholderDataUrl(item.placeholder);
  const pending = isPending(item);
  const failed = item.status === 'FAILED';
  const alt = altText(item);

  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0) return;
    if (selectable && (selecting || e.shiftKey)) {
      e.preventDefault();
      onToggle(item.id, e.shiftKey);
      return;
    }
    if (e.metaKey || e.ctrlKey) return; // open in a new tab, as links do
    e.preventDefault();
    onOpen(item.id);
  };

  return (
    <div
      className="tile"
      data-id={item.id}
      data-status={item.status}
      data-selected={selected || undefined}
      data-locked={note ? true : undefined}
      style={{ left: x, top: y, width, height, backgroundImage: placeholder ? `url(${placeholder})` : undefined }}
    >
      <a
        href={href}
        className="tile-link"
        onClick={onClick}
        aria-busy={pending || undefined}
        // A locked item (its note says why) does nothing when clicked: say so to assistive technology.
        aria-disabled={note ? true : undefined}
        aria-describedby={pending || failed ? `st-${item.id}` : undefined}
      >
        {/* No thumbnail exists until processing ends: asking sooner is a 404 per tile (hundreds during an import). */}
        {!broken && !pending ? (
          <img
            // A new key after processing makes the browser ask for the thumbnail afresh.
            key={shown}
            className={`thumb${loaded ? ' loaded' : ''}`}
            src={item.thumbnailUrl}
            alt={alt}
            width={width}
            height={height}
            loading="lazy"
            decoding="async"
            draggable={false}
            onLoad={() => setLoadedKey(shown)}
            onError={() => {
              setBrokenKey(shown);
              onBroken?.(item.id);
            }}
          />
        ) : (
          <span className="visually-hidden">{alt}</span>
        )}
        {item.mediaItemType === 'video' ? <Badge kind="video" /> : null}
        {item.favourite ? <Badge kind="favourite" /> : null}
        {note ? <span className="tile-note">{note}</span> : null}
        {pending ? (
          <span className="tile-status" id={`st-${item.id}`}>
            <Spinner />
            Processing…
          </span>
        ) : failed ? (
          <span className="tile-status failed" id={`st-${item.id}`} title={item.failureReason ?? undefined}>
            Could not process
          </span>
        ) : null}
      </a>
      {selectable ? (
        <CheckToggle
          className="tile-check"
          pressed={selected}
          label={`Select ${alt}`}
          iconSize={18}
          onClick={(e) => onToggle(item.id, e.shiftKey)}
        />
      ) : null}
    </div>
  );
});
