/** Media processing components of the worker: pure functions over files, no bus, no stores. */
export { MediaError } from './errors';
export type { MediaErrorKind } from './errors';
export { assertImageSize, DEFAULT_LIMITS, ffmpegThreads, itemMemoryBytes, transcodeBudgetSeconds } from './limits';
export type { ProcessingLimits } from './limits';
export {
  closeExifTool,
  configureExifTool,
  contractMetadata,
  DEFAULT_EXIFTOOL_PROCS,
  DEFAULT_EXIFTOOL_TIMEOUT_SECONDS,
  exifToolPids,
  exifToolRawPreview,
  extractMetadata,
  extractRawPreview,
  emptyMetadata,
} from './metadata';
export type { CreationTimeSource, MediaMetadata } from './metadata';
export {
  applyOrientation,
  isWebPlayable,
  makeImagePreviews,
  makeVideoPreviews,
  posterTime,
  PREVIEW_MAX_EDGE,
  THUMBNAIL_MAX_EDGE,
  transcodeIfNeeded,
} from './previews';
export type { ImagePreviewOptions, Previews, RawPreview, RawPreviewSource } from './previews';
export { detectCategory, PANORAMA_MIN_ASPECT, SLOW_MOTION_MIN_FPS } from './category';
export type { CategoryContext, MediaCategory } from './category';
export type { Bitmap } from './bitmap';
export { ANIMAL_LABELS, DEFAULT_THINGS_MIN_SCORE, detectThings, seeThings } from './things';
export type { SeenObject, Thing, ThingsOptions, ThingsSeen } from './things';
export { DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, detectFaces } from './faces';
export type { Face, FacesOptions } from './faces';
export { ModelLoadError } from './vision';
export { DEFAULT_MAX_DISTANCE_KM, findPlace, placeAt } from './places';
export type { Place, PlaceOptions } from './places';
export { closeOcr, DEFAULT_OCR_TIMEOUT_SECONDS, OcrEngineError, OcrTimeoutError, readWords } from './ocr';
export type { OcrOptions } from './ocr';
