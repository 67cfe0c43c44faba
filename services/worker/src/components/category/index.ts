/**
 * The category an item is filed under, from its metadata alone. Never `live`: a still is a Live
 * Photo only once its motion part is in the library too, which the media service decides when it
 * pairs the two by their `contentIdentifier` (so a lone Live Photo still is filed by the rules
 * below, like any photo, and the video of a pair like any video). Rules, first match wins:
 *
 * 1. motion — a photo with an embedded video: Google motion photo XMP (GCamera:MotionPhoto,
 *    GCamera:MicroVideo, Camera:MotionPhoto) or a Samsung motion photo (MotionPhoto_Data trailer,
 *    HEIC `mpvd` box).
 * 2. slow — a video recorded for slow motion: capture frame rate (com.apple.quicktime.capture.fps,
 *    com.android.capture.fps) ≥ 100, or a stream of ≥ 100 fps with a known, non-zero duration.
 * 3. panorama — a photo whose XMP GPano:ProjectionType is equirectangular or cylindrical.
 * 4. screenshot — an image with no camera make or model, AND a file name like
 *    "Screenshot…", "Screen Shot…", "Bildschirmfoto…", "Capture d’écran…", or an EXIF/XMP
 *    UserComment or writing software that says so ("Screenshot", gnome-screenshot…). Both
 *    conditions, so that a camera photo named "screenshot.jpg" or an exported PNG stays default.
 * 5. panorama — a photo at least 2.5 times as wide as high, or as high as wide. After screenshot,
 *    so that a long scrolling screenshot is a screenshot.
 * 6. default — everything else.
 */
import type { MediaMetadata } from '../metadata/types';

/** What the worker files an item under (the contract's categories but `live`, see above). */
export type MediaCategory = 'default' | 'screenshot' | 'panorama' | 'slow' | 'motion';

export interface CategoryContext {
  /** The name the file was uploaded with. */
  filename: string;
  mimeType: string;
}

const PANORAMA_PROJECTIONS = new Set(['equirectangular', 'cylindrical']);
export const PANORAMA_MIN_ASPECT = 2.5;
export const SLOW_MOTION_MIN_FPS = 100;
const SCREENSHOT_NAME = /screenshot|screen[\s_-]?shot|bildschirmfoto|capture d[’']écran|capture d[’']ecran/i;
const SCREENSHOT_WORDS = /screenshot|screen shot|screencapture|screen capture|bildschirmfoto|capture d[’']écran/i;

export function detectCategory(meta: MediaMetadata, ctx: CategoryContext): MediaCategory {
  const isVideo = ctx.mimeType.startsWith('video/');
  if (!isVideo && meta.motionPhoto) return 'motion';
  if (isVideo && isSlowMotion(meta)) return 'slow';
  if (isVideo) return 'default';
  if (meta.xmpProjectionType && PANORAMA_PROJECTIONS.has(meta.xmpProjectionType.toLowerCase())) return 'panorama';
  if (isScreenshot(meta, ctx)) return 'screenshot';
  if (isWide(meta)) return 'panorama';
  return 'default';
}

function isSlowMotion(meta: MediaMetadata): boolean {
  const captureFps = Number(meta.captureFps);
  if (meta.captureFps !== null && captureFps >= SLOW_MOTION_MIN_FPS) return true;
  const fps = Number(meta.fps);
  return meta.fps !== null && fps >= SLOW_MOTION_MIN_FPS && (meta.durationSeconds ?? 0) > 0;
}

function isScreenshot(meta: MediaMetadata, ctx: CategoryContext): boolean {
  if (meta.cameraMake || meta.cameraModel) return false;
  return (
    SCREENSHOT_NAME.test(ctx.filename) ||
    SCREENSHOT_WORDS.test(meta.userComment ?? '') ||
    SCREENSHOT_WORDS.test(meta.softwareHint ?? '')
  );
}

function isWide(meta: MediaMetadata): boolean {
  if (!meta.width || !meta.height) return false;
  const aspect = Math.max(meta.width, meta.height) / Math.min(meta.width, meta.height);
  return aspect >= PANORAMA_MIN_ASPECT;
}
