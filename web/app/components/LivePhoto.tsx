import { useEffect, useRef, useState } from 'react';
import type { PointerEvent } from 'react';
import './LivePhoto.css';

export interface LivePhotoProps {
  /** The still's preview. */
  src: string;
  alt: string;
  /** The motion part's web-playable video (the item's `motionUrl`). */
  motionUrl: string;
}

/**
 * The still of a Live Photo, as phones show it: the motion part plays over it while a mouse rests
 * on it or a finger (or pen) is held down on it, and the still is back once it ends or is let go.
 * The "Live" button plays it too (keyboard, screen readers). Muted: a hover is no gesture that
 * lets a browser play sound.
 */
export function LivePhoto({ src, alt, motionUrl }: LivePhotoProps) {
  const [playing, setPlaying] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    if (!playing) {
      v.pause();
      return;
    }
    v.currentTime = 0;
    // Refused (no data yet, a browser's policy): the still stays.
    v.play()?.catch(() => setPlaying(false));
  }, [playing]);

  const byMouse = (e: PointerEvent) => e.pointerType === 'mouse';
  return (
    <div
      className="live-photo"
      data-playing={playing || undefined}
      onPointerEnter={(e) => byMouse(e) && setPlaying(true)}
      onPointerLeave={() => setPlaying(false)}
      onPointerDown={(e) => !byMouse(e) && setPlaying(true)}
      onPointerUp={(e) => !byMouse(e) && setPlaying(false)}
      onPointerCancel={() => setPlaying(false)}
      // A long press would open the browser's menu over the picture.
      onContextMenu={(e) => e.preventDefault()}
    >
      <img src={src} alt={alt} decoding="async" draggable={false} />
      <video
        ref={video}
        className="live-photo-motion"
        src={motionUrl}
        muted
        playsInline
        preload="metadata"
        aria-hidden="true"
        tabIndex={-1}
        onEnded={() => setPlaying(false)}
      />
      <button
        type="button"
        className="live-photo-button"
        aria-pressed={playing}
        title="Play the Live Photo (or hover, or press and hold)"
        onClick={() => setPlaying((p) => !p)}
      >
        Live
      </button>
    </div>
  );
}
