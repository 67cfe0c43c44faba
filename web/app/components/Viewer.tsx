import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { MediaItem } from '../api/types';
import { altText, formatDateTime } from '../lib/format';
import { placeholderDataUrl } from '../lib/thumbhash';
import { Icon } from './Icon';
import { InfoPanel } from './InfoPanel';

export interface ViewerActions {
  favourite(item: MediaItem, value: boolean): void;
  hide(item: MediaItem, value: boolean): void;
  trash(item: MediaItem): void;
  restore?(item: MediaItem): void;
  describe(item: MediaItem, description: string | null): Promise<void>;
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
}

/** Keys the viewer answers to; the shortcuts dialog lists the same. */
export const VIEWER_SHORTCUTS: [string, string][] = [
  ['← / →', 'Previous / next'],
  ['Esc', 'Close'],
  ['I', 'Show or hide info'],
  ['F', 'Favourite'],
  ['Delete', 'Move to trash'],
  ['A', 'Add to album'],
];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/**
 * The full-screen viewer: a modal dialog (focus stays inside, Esc closes, focus goes back to the
 * grid) showing the photo's preview over its placeholder, or the video with its controls (the
 * preview is streamed with Range, so seeking works), with ←/→, the info panel and the actions.
 */
export function Viewer({ item, prev, next, position, onNavigate, onClose, actions, extra }: ViewerProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [info, setInfo] = useState(false);
  // Esc may come as a cancel the browser will not let us refuse (then the dialog closes itself): close once either way.
  const closed = useRef(false);
  const close = () => {
    if (closed.current) return;
    closed.current = true;
    onClose();
  };

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    }
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
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
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
      default:
        return;
    }
    e.preventDefault();
  };

  const placeholder = placeholderDataUrl(item.placeholder);
  const ready = item.status === 'READY';
  const title = item.description?.trim() || item.filename;

  return (
    <dialog
      ref={ref}
      className={`viewer${info ? ' with-info' : ''}`}
      aria-label={`${item.mediaItemType === 'video' ? 'Video' : 'Photo'}: ${title}`}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onClose={close}
      onKeyDown={onKeyDown}
    >
      <div className="viewer-bar">
        <button type="button" className="icon-button" onClick={close} aria-label="Close viewer" aria-keyshortcuts="Escape" title="Close (Esc)">
          <Icon name="close" />
        </button>
        <div className="viewer-title">
          <span className="viewer-name">{title}</span>
          <span className="viewer-date">
            {formatDateTime(item.creationTime)}
            {position ? ` · ${position.index + 1} of ${position.total}${position.more ? '+' : ''}` : ''}
          </span>
        </div>
        <div className="viewer-actions">
          {extra}
          {actions ? (
            <>
              <button
                type="button"
                className="icon-button"
                aria-pressed={item.favourite}
                aria-label="Favourite"
                aria-keyshortcuts="F"
                title={item.favourite ? 'Remove from favourites (F)' : 'Add to favourites (F)'}
                onClick={() => actions.favourite(item, !item.favourite)}
              >
                <Icon name={item.favourite ? 'heart' : 'heartOutline'} />
              </button>
              <button type="button" className="icon-button" aria-label="Add to album" aria-keyshortcuts="A" title="Add to album (A)" onClick={() => actions.addToAlbum(item)}>
                <Icon name="album" />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-pressed={item.hidden}
                aria-label="Hidden"
                title={item.hidden ? 'Unhide: show in the library again' : 'Hide from the library'}
                onClick={() => actions.hide(item, !item.hidden)}
              >
                <Icon name="hidden" />
              </button>
              {item.deleted && actions.restore ? (
                <button type="button" className="icon-button" aria-label="Restore from trash" title="Restore" onClick={() => actions.restore?.(item)}>
                  <Icon name="restore" />
                </button>
              ) : (
                <button type="button" className="icon-button" aria-label="Move to trash" aria-keyshortcuts="Delete" title="Move to trash (Delete)" onClick={() => actions.trash(item)}>
                  <Icon name="trash" />
                </button>
              )}
            </>
          ) : null}
          <a className="icon-button" href={item.sourceUrl} download={item.filename} aria-label="Download original" title="Download original">
            <Icon name="download" />
          </a>
          <button type="button" className="icon-button" aria-pressed={info} aria-label="Info" aria-keyshortcuts="I" title="Info (I)" onClick={() => setInfo((v) => !v)}>
            <Icon name="info" />
          </button>
        </div>
      </div>

      <div className="viewer-stage">
        <div className="viewer-media" style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined }}>
          {item.mediaItemType === 'video' ? (
            ready ? (
              <video key={item.id} src={item.previewUrl} poster={item.thumbnailUrl} controls playsInline preload="metadata" aria-label={altText(item)} />
            ) : (
              <p className="viewer-note">This video is still being processed. It will play once it is ready.</p>
            )
          ) : (
            <img key={item.id} src={ready ? item.previewUrl : item.sourceUrl} alt={altText(item)} decoding="async" />
          )}
        </div>
        <button type="button" className="viewer-nav prev" onClick={() => prev && onNavigate(prev.id)} disabled={!prev} aria-label="Previous" aria-keyshortcuts="ArrowLeft" title="Previous (←)">
          <Icon name="left" size={32} />
        </button>
        <button type="button" className="viewer-nav next" onClick={() => next && onNavigate(next.id)} disabled={!next} aria-label="Next" aria-keyshortcuts="ArrowRight" title="Next (→)">
          <Icon name="right" size={32} />
        </button>
      </div>

      {info ? <InfoPanel item={item} onDescribe={actions ? (d) => actions.describe(item, d) : undefined} /> : null}
    </dialog>
  );
}
