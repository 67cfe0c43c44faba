import type { MediaItemV1 } from '@trove/proto-events';
import type { ContentUrlSigner } from '../content/signing';

/** The MediaItem of openapi.yaml. */
export interface ApiMediaItem {
  id: string;
  userId: string;
  filename: string;
  description: string | null;
  mimeType: string;
  placeholder: string | null;
  sourceUrl: string;
  previewUrl: string;
  thumbnailUrl: string;
  favourite: boolean;
  shared: boolean;
  hidden: boolean;
  deleted: boolean;
  status: MediaItemV1['status'];
  failureReason: string | null;
  mediaItemType: MediaItemV1['mediaItemType'];
  mediaItemCategory: MediaItemV1['mediaItemCategory'];
  width: number | null;
  height: number | null;
  size: number;
  creationTime: string;
  latitude: number | null;
  longitude: number | null;
  cameraMake: string | null;
  cameraModel: string | null;
  focalLength: string | null;
  apertureFNumber: string | null;
  isoEquivalent: string | null;
  exposureTime: string | null;
  fps: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A media service item as the API shows it: internal fields (sha256, blob variants, deletedAt)
 * dropped, signed absolute content URLs added. `baseUrl` is the public origin of the gateway.
 */
export function presentMediaItem(item: MediaItemV1, signer: ContentUrlSigner, baseUrl: string): ApiMediaItem {
  const url = (variant: 'original' | 'preview' | 'thumbnail') => `${baseUrl}${signer.sign(item.id, variant)}`;
  return {
    id: item.id,
    userId: item.userId,
    filename: item.filename,
    description: item.description,
    mimeType: item.mimeType,
    placeholder: item.placeholder,
    sourceUrl: url('original'),
    previewUrl: url('preview'),
    thumbnailUrl: url('thumbnail'),
    favourite: item.favourite,
    shared: item.shared,
    hidden: item.hidden,
    deleted: item.deleted,
    status: item.status,
    failureReason: item.failureReason,
    mediaItemType: item.mediaItemType,
    mediaItemCategory: item.mediaItemCategory,
    width: item.width,
    height: item.height,
    size: item.size,
    creationTime: item.creationTime,
    latitude: item.latitude,
    longitude: item.longitude,
    cameraMake: item.cameraMake,
    cameraModel: item.cameraModel,
    focalLength: item.focalLength,
    apertureFNumber: item.apertureFNumber,
    isoEquivalent: item.isoEquivalent,
    exposureTime: item.exposureTime,
    fps: item.fps,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
