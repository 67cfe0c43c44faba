import {
  addAlbumMediaItems,
  createAlbum,
  deleteAlbum,
  getAlbum,
  getSharedAlbum,
  listAlbumMediaItems,
  listAlbums,
  listMediaItemAlbums,
  listSharedAlbumMediaItems,
  removeAlbumMediaItems,
  updateAlbum,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { Albums } from './albums/albums';

/** The library's RPCs: the gateway calls them with the authenticated user's id (none for sharing). */
export function libraryHandlers(albums: Albums): ServeOptions['handlers'] {
  return [
    rpcHandler(createAlbum, (req) => albums.create(req)),
    rpcHandler(listAlbums, async (req) => ({ albums: await albums.list(req) })),
    rpcHandler(getAlbum, ({ userId, id }) => albums.get(userId, id)),
    rpcHandler(updateAlbum, async (req) => {
      await albums.update(req);
      return {};
    }),
    rpcHandler(deleteAlbum, async ({ userId, id }) => {
      await albums.delete(userId, id);
      return {};
    }),
    rpcHandler(listAlbumMediaItems, async ({ userId, id, page, limit }) => ({ items: await albums.listItems(userId, id, page, limit) })),
    rpcHandler(addAlbumMediaItems, async ({ userId, id, mediaItemIds }) => {
      await albums.addItems(userId, id, mediaItemIds);
      return {};
    }),
    rpcHandler(removeAlbumMediaItems, async ({ userId, id, mediaItemIds }) => {
      await albums.removeItems(userId, id, mediaItemIds);
      return {};
    }),
    rpcHandler(listMediaItemAlbums, async ({ userId, mediaItemId }) => ({ albums: await albums.albumsOfItem(userId, mediaItemId) })),
    rpcHandler(getSharedAlbum, ({ id }) => albums.sharedAlbum(id)),
    rpcHandler(listSharedAlbumMediaItems, async ({ id, page, limit }) => ({ items: await albums.sharedItems(id, page, limit) })),
  ];
}
