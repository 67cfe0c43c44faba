import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent } from 'react';
import { STEP_SCALE, UNZOOMED, isZoomed, panBy, transformOf, zoomAt } from '~/lib/zoom';
import type { Size, ZoomView } from '~/lib/zoom';

export interface ZoomControls {
  /** Zooms by `factor` about the middle of the picture (the + and − keys). */
  zoomBy(factor: number): void;
  reset(): void;
}

/** How fast the wheel zooms: a notch of a mouse wheel (100) is about ×1.2. */
const WHEEL_RATE = 0.0018;

/**
 * A photo in the viewer that zooms — double-click or double-tap, the wheel, a pinch, + and − —
 * about the pointer, and is dragged around while zoomed (lib/zoom.ts does the arithmetic). Once
 * zoomed, the original is laid over the preview as soon as it has loaded, when it is of a type the
 * browser draws (`original`): the preview's resolution is for the screen, not for a closer look.
 */
export const ZoomableImage = forwardRef<ZoomControls, { src: string; original?: string; alt: string }>(
  function ZoomableImage({ src, original, alt }, ref) {
    const frame = useRef<HTMLDivElement>(null);
    const natural = useRef<Size>({ width: 0, height: 0 });
    const [view, setView] = useState<ZoomView>(UNZOOMED);
    const [wantOriginal, setWantOriginal] = useState(false);
    const [originalLoaded, setOriginalLoaded] = useState(false);
    const pointers = useRef(new Map<number, { x: number; y: number }>());
    const pinch = useRef<{ distance: number; scale: number } | null>(null);

    /** Applies `change` to the view with the frame's current size and the pointer's place in it. */
    const change = (f: (v: ZoomView, frameSize: Size, at: (x: number, y: number) => [number, number]) => ZoomView) => {
      const box = frame.current?.getBoundingClientRect();
      if (!box) return;
      const size = { width: box.width, height: box.height };
      setView((v) => f(v, size, (x, y) => [x - box.left, y - box.top]));
    };

    useImperativeHandle(ref, () => ({
      zoomBy: (factor) =>
        change((v, size) => zoomAt(v, v.scale * factor, size.width / 2, size.height / 2, natural.current, size)),
      reset: () => setView(UNZOOMED),
    }));

    useEffect(() => {
      if (isZoomed(view) && original) setWantOriginal(true);
    }, [view, original]);

    // The wheel zooms (a listener of its own: React's is passive, and the page must not scroll).
    useEffect(() => {
      const el = frame.current;
      if (!el) return;
      const onWheel = (e: WheelEvent) => {
        e.preventDefault();
        const box = el.getBoundingClientRect();
        setView((v) =>
          zoomAt(
            v,
            v.scale * Math.exp(-e.deltaY * WHEEL_RATE),
            e.clientX - box.left,
            e.clientY - box.top,
            natural.current,
            { width: box.width, height: box.height },
          ),
        );
      };
      el.addEventListener('wheel', onWheel, { passive: false });
      return () => el.removeEventListener('wheel', onWheel);
    }, []);

    const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      pinch.current = null;
    };
    const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
      const last = pointers.current.get(e.pointerId);
      if (!last) return;
      pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [a, b] = [...pointers.current.values()];
      if (a && b) {
        // Two fingers: the scale follows their distance, about the point between them.
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        const start = (pinch.current ??= { distance, scale: view.scale });
        change((v, size, at) =>
          zoomAt(
            v,
            (start.scale * distance) / start.distance,
            ...at((a.x + b.x) / 2, (a.y + b.y) / 2),
            natural.current,
            size,
          ),
        );
      } else if (isZoomed(view)) {
        change((v, size) => panBy(v, e.clientX - last.x, e.clientY - last.y, natural.current, size));
      }
    };
    const onPointerEnd = (e: ReactPointerEvent<HTMLDivElement>) => {
      pointers.current.delete(e.pointerId);
      pinch.current = null;
    };

    const zoomed = isZoomed(view);
    return (
      <div
        ref={frame}
        className={zoomed ? 'viewer-zoom zoomed' : 'viewer-zoom'}
        data-scale={view.scale.toFixed(2)}
        onDoubleClick={(e) =>
          change((v, size, at) =>
            isZoomed(v) ? UNZOOMED : zoomAt(v, STEP_SCALE, ...at(e.clientX, e.clientY), natural.current, size),
          )
        }
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        <div className="viewer-zoom-content" style={{ transform: transformOf(view) }}>
          <img
            src={src}
            alt={alt}
            decoding="async"
            draggable={false}
            onLoad={(e) => {
              natural.current = { width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight };
            }}
          />
          {wantOriginal && original ? (
            <img
              src={original}
              alt=""
              aria-hidden
              draggable={false}
              className={originalLoaded ? 'viewer-original loaded' : 'viewer-original'}
              onLoad={() => setOriginalLoaded(true)}
            />
          ) : null}
        </div>
      </div>
    );
  },
);
