import type { Request } from 'express';
import type { AlbumV1, MediaItemV1 } from '@trove/proto-events';
import type { MediaGatewayDeps } from '../content/setup';
import { publicBaseUrl } from '../content/setup';
import { presentMediaItem } from '../media/present';
import type { ApiMediaItem } from '../media/present';

/** The Album of openapi.yaml. */
export interface ApiAlbum {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  shared: boolean;
  hidden: boolean;
  coverMediaItemId: string | null;
  coverMediaItem: ApiMediaItem | null;
  mediaItemsCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Turns library answers into API shapes: media items (the cover too) get signed absolute content URLs. */
export function presenter(req: Request, media: MediaGatewayDeps) {
  const base = publicBaseUrl(req, media.publicUrl);
  const item = (i: MediaItemV1): ApiMediaItem => presentMediaItem(i, media.signer, base);
  return {
    item,
    items: (items: MediaItemV1[]): ApiMediaItem[] => items.map(item),
    album: (a: AlbumV1): ApiAlbum => ({
      id: a.id,
      userId: a.userId,
      name: a.name,
      description: a.description,
      shared: a.shared,
      hidden: a.hidden,
      coverMediaItemId: a.coverMediaItemId,
      coverMediaItem: a.coverMediaItem ? item(a.coverMediaItem) : null,
      mediaItemsCount: a.mediaItemsCount,
      createdAt: a.createdAt,
      updatedAt: a.updatedAt,
    }),
  };
}
