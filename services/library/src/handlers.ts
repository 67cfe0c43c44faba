import {
  addAlbumMediaItemsRpc,
  checkSharedContentRpc,
  createAlbumRpc,
  deleteAlbumRpc,
  getAlbumRpc,
  getSharedAlbumRpc,
  listAlbumMediaItemsRpc,
  listAlbumsRpc,
  listMediaItemAlbumsRpc,
  listSharedAlbumMediaItemsRpc,
  removeAlbumMediaItemsRpc,
  updateAlbumRpc,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { Albums } from './albums/service';

/** The library's RPCs: the gateway calls them with the authenticated user's id (none for sharing). */
export function libraryHandlers(albums: Albums): ServeOptions['handlers'] {
  return [
    rpcHandler(createAlbumRpc, (req) => albums.create(req)),
    rpcHandler(listAlbumsRpc, async (req) => ({ albums: await albums.list(req) })),
    rpcHandler(getAlbumRpc, ({ userId, id }) => albums.get(userId, id)),
    rpcHandler(updateAlbumRpc, async (req) => {
      await albums.update(req);
      return {};
    }),
    rpcHandler(deleteAlbumRpc, async ({ userId, id }) => {
      await albums.delete(userId, id);
      return {};
    }),
    rpcHandler(listAlbumMediaItemsRpc, async ({ userId, id, page, limit }) => ({
      items: await albums.listItems(userId, id, page, limit),
    })),
    rpcHandler(addAlbumMediaItemsRpc, async ({ userId, id, mediaItemIds }) => {
      await albums.addItems(userId, id, mediaItemIds);
      return {};
    }),
    rpcHandler(removeAlbumMediaItemsRpc, async ({ userId, id, mediaItemIds }) => {
      await albums.removeItems(userId, id, mediaItemIds);
      return {};
    }),
    rpcHandler(listMediaItemAlbumsRpc, async ({ userId, mediaItemId }) => ({
      albums: await albums.albumsOfItem(userId, mediaItemId),
    })),
    rpcHandler(getSharedAlbumRpc, ({ id }) => albums.sharedAlbum(id)),
    rpcHandler(listSharedAlbumMediaItemsRpc, ({ id, page, limit }) => albums.sharedItems(id, page, limit)),
    rpcHandler(checkSharedContentRpc, ({ albumId, mediaItemId }) => albums.sharedContent(albumId, mediaItemId)),
  ];
}
