export type { ImagePreviewOptions, Previews, RawPreview, RawPreviewSource } from './image';
export { applyOrientation, makeImagePreviews, PREVIEW_MAX_EDGE, THUMBNAIL_MAX_EDGE } from './image';
export { isWebPlayable, makeVideoPreviews, posterTime, transcodeIfNeeded } from './video';
