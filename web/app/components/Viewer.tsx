import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { MediaItem } from '~/api/types';
import type { DatePlaceChange } from '~/lib/date-place';
import { altText, formatDateTime } from '~/lib/format';
import { isTypingTarget } from '~/lib/keyboard';
import { placeholderDataUrl } from '~/lib/thumbhash';
import { originalShowsInBrowser } from '~/lib/zoom';
import { InfoPanel } from './InfoPanel';
import { LivePhoto } from './LivePhoto';
import { IconButton } from './ui/Button';
import { Dialog } from './ui/Dialog';
import { Icon } from './ui/Icon';
import { ZoomableImage } from './ZoomableImage';
import type { ZoomControls } from './ZoomableImage';
import './Viewer.css';

export interface ViewerActions {
  favourite(item: MediaItem, value: boolean): void;
  hide(item: MediaItem, value: boolean): void;
  trash(item: MediaItem): void;
  restore?(item: MediaItem): void;
  /** Delete for good (the trash only; asks first). */
  purge?(item: MediaItem): void;
  describe(item: MediaItem, description: string | null): Promise<void>;
  /** When and where it was taken; rejects with the message to show. */
  edit(item: MediaItem, change: DatePlaceChange): Promise<void>;
  addToAlbum(item: MediaItem): void;
}

export interface ViewerProps {
  item: MediaItem;
  /** Neighbours in the list (for ←/→ and preloading); null at the ends. */
  prev: MediaItem | null;
  next: MediaItem | null;
  position?: { index: number; total: number; more: boolean };
  onNavigate(id: string): void;
  onClose(): void;
  /** Absent: read-only (shared albums). */
  actions?: ViewerActions;
  /** More buttons for the toolbar (e.g. "Set as album cover"). */
  extra?: ReactNode;
  /** Who added the item, when it is another user's (an album shared between members). */
  addedBy?: string;
}

/** Keys the viewer answers to; the shortcuts dialog lists the same. */
export const VIEWER_SHORTCUTS: [string, string][] = [
  ['← / →', 'Previous / next'],
  ['Esc', 'Close'],
  ['I', 'Show or hide info'],
  ['F', 'Favourite'],
  ['Delete', 'Move to trash'],
  ['A', 'Add to album'],
  ['+ / −', 'Zoom in / out (also a double-click, the wheel or a pinch; drag to move)'],
  ['0', 'The whole picture again'],
  ['S', 'Start or stop the slideshow'],
];

/** How long the slideshow shows a photo (a video plays to its end). */
export const SLIDE_MS = 5000;

/**
 * The full-screen viewer: a modal dialog (focus stays inside, Esc closes, focus goes back to the
 * grid) showing the photo's preview over its placeholder (a Live Photo's motion part playing on
 * hover or press-and-hold), or the video with its controls (the preview is streamed with Range,
 * so seeking works), with ←/→, the info panel and the actions.
 */
export function Viewer({ item, prev, next, position, onNavigate, onClose, actions, extra, addedBy }: ViewerProps) {
  const [info, setInfo] = useState(false);
  const zoom = useRef<ZoomControls>(null);
  const [playing, setPlaying] = useState(false);
  /** The slideshow's next step: the next item, or its end after the last one. */
  const advance = useCallback(() => (next ? onNavigate(next.id) : setPlaying(false)), [next, onNavigate]);
  const waitsForVideo = item.mediaItemType === 'video' && item.status === 'READY';

  // The slideshow: each photo for SLIDE_MS (a video until it ends), then the next, to the end of the list.
  useEffect(() => {
    if (!playing || waitsForVideo) return;
    const timer = setTimeout(advance, SLIDE_MS);
    return () => clearTimeout(timer);
  }, [playing, waitsForVideo, item.id, advance]);

  // The page behind does not scroll while the viewer is open.
  useEffect(() => {
    document.documentElement.classList.add('viewer-open');
    return () => document.documentElement.classList.remove('viewer-open');
  }, []);

  // Preload the neighbours' previews, so stepping is instant.
  useEffect(() => {
    for (const n of [prev, next]) {
      if (n && n.mediaItemType === 'photo' && n.status === 'READY') {
        const img = new Image();
        img.src = n.previewUrl;
      }
    }
  }, [prev, next]);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
    const onVideo = (e.target as HTMLElement).tagName === 'VIDEO';
    switch (e.key) {
      case 'ArrowLeft':
        if (onVideo) return;
        if (prev) onNavigate(prev.id);
        break;
      case 'ArrowRight':
        if (onVideo) return;
        if (next) onNavigate(next.id);
        break;
      case 'i':
      case 'I':
        setInfo((v) => !v);
        break;
      case 'f':
      case 'F':
        actions?.favourite(item, !item.favourite);
        break;
      case 'Delete':
        if (actions && !item.deleted) actions.trash(item);
        break;
      case 'a':
      case 'A':
        actions?.addToAlbum(item);
        break;
      case '+':
      case '=':
        zoom.current?.zoomBy(1.5);
        break;
      case '-':
        zoom.current?.zoomBy(1 / 1.5);
        break;
      case '0':
        zoom.current?.reset();
        break;
      case 's':
      case 'S':
        setPlaying((p) => !p);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const placeholder = placeholderDataUrl(item.placeholder);
  const ready = item.status === 'READY';
  const title = item.description?.trim() || item.filename || formatDateTime(item.creationTime);

  return (
    <Dialog
      className={`viewer${info ? ' with-info' : ''}`}
      aria-label={`${item.mediaItemType === 'video' ? 'Video' : 'Photo'}: ${title}`}
      onClose={onClose}
      onKeyDown={onKeyDown}
    >
      <div className="viewer-bar">
        <IconButton
          icon="close"
          label="Close viewer"
          onClick={onClose}
          aria-keyshortcuts="Escape"
          title="Close (Esc)"
        />
        <div className="viewer-title">
          <span className="viewer-name">{title}</span>
          <span className="viewer-date">
            {formatDateTime(item.creationTime)}
            {position ? ` · ${position.index + 1} of ${position.total}${position.more ? '+' : ''}` : ''}
          </span>
        </div>
        <div className="viewer-actions">
          {prev || next ? (
            <IconButton
              icon={playing ? 'pause' : 'play'}
              label="Slideshow"
              aria-pressed={playing}
              title={playing ? 'Stop the slideshow' : 'Slideshow'}
              shortcut="S"
              onClick={() => setPlaying((p) => !p)}
            />
          ) : null}
          {extra}
          {actions ? (
            <>
              <IconButton
                icon={item.favourite ? 'heart' : 'heartOutline'}
                label="Favourite"
                aria-pressed={item.favourite}
                title={item.favourite ? 'Remove from favourites' : 'Add to favourites'}
                shortcut="F"
                onClick={() => actions.favourite(item, !item.favourite)}
              />
              <IconButton icon="album" label="Add to album" shortcut="A" onClick={() => actions.addToAlbum(item)} />
              <IconButton
                icon="hidden"
                label="Hidden"
                aria-pressed={item.hidden}
                title={item.hidden ? 'Unhide: show in the library again' : 'Hide from the library'}
                onClick={() => actions.hide(item, !item.hidden)}
              />
              {item.deleted && actions.restore ? (
                <>
                  <IconButton
                    icon="restore"
                    label="Restore from trash"
                    title="Restore"
                    onClick={() => actions.restore?.(item)}
                  />
                  {actions.purge ? (
                    <IconButton
                      icon="trash"
                      label="Delete for good"
                      title="Delete for good"
                      onClick={() => actions.purge?.(item)}
                    />
                  ) : null}
                </>
              ) : (
                <IconButton icon="trash" label="Move to trash" shortcut="Delete" onClick={() => actions.trash(item)} />
              )}
            </>
          ) : null}
          {item.sourceUrl ? (
            // A shared album that hides locations gives its visitors no original.
            <a
              className="icon-button"
              href={item.sourceUrl}
              download={item.filename || true}
              aria-label="Download original"
              title="Download original"
            >
              <Icon name="download" />
            </a>
          ) : null}
          <IconButton icon="info" label="Info" aria-pressed={info} shortcut="I" onClick={() => setInfo((v) => !v)} />
        </div>
      </div>

      <div className="viewer-stage">
        <div className="viewer-media" style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined }}>
          {item.mediaItemType === 'video' ? (
            ready ? (
              <video
                key={item.id}
                src={item.previewUrl}
                poster={item.thumbnailUrl}
                controls
                playsInline
                autoPlay={playing}
                onEnded={playing ? advance : undefined}
                preload="metadata"
                aria-label={altText(item)}
              />
            ) : (
              <p className="viewer-note">This video is still being processed. It will play once it is ready.</p>
            )
          ) : ready && item.motionUrl ? (
            <LivePhoto key={item.id} src={item.previewUrl} alt={altText(item)} motionUrl={item.motionUrl} />
          ) : (
            <ZoomableImage
              key={item.id}
              ref={zoom}
              src={ready || !item.sourceUrl ? item.previewUrl : item.sourceUrl}
              original={item.sourceUrl && originalShowsInBrowser(item.mimeType) ? item.sourceUrl : undefined}
              alt={altText(item)}
            />
          )}
        </div>
        <NavButton side="prev" to={prev} onNavigate={onNavigate} />
        <NavButton side="next" to={next} onNavigate={onNavigate} />
      </div>

      {info ? (
        <InfoPanel
          item={item}
          addedBy={addedBy}
          onDescribe={actions ? (d) => actions.describe(item, d) : undefined}
          onEdit={actions ? (change) => actions.edit(item, change) : undefined}
        />
      ) : null}
    </Dialog>
  );
}

/** The two arrows beside the picture: each goes to its neighbour, disabled at the ends (the keys do the same). */
const NAV = {
  prev: { label: 'Previous', key: 'ArrowLeft', arrow: '←', icon: 'left' },
  next: { label: 'Next', key: 'ArrowRight', arrow: '→', icon: 'right' },
} as const;

function NavButton({
  side,
  to,
  onNavigate,
}: {
  side: keyof typeof NAV;
  to: MediaItem | null;
  onNavigate(id: string): void;
}) {
  const { label, key, arrow, icon } = NAV[side];
  return (
    <button
      type="button"
      className={`viewer-nav ${side}`}
      onClick={() => to && onNavigate(to.id)}
      disabled={!to}
      aria-label={label}
      aria-keyshortcuts={key}
      title={`${label} (${arrow})`}
    >
      <Icon name={icon} size={32} />
    </button>
  );
}
