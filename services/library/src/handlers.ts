import {
  addAlbumMediaItemsRpc,
  addAlbumMemberRpc,
  checkMemberContentRpc,
  listAlbumMembersRpc,
  removeAlbumMemberRpc,
  checkSharedContentRpc,
  unlockSharedAlbumRpc,
  createAlbumRpc,
  deleteAlbumRpc,
  getAlbumRpc,
  getSharedAlbumRpc,
  listAlbumMediaItemsRpc,
  listAlbumsRpc,
  listMediaItemAlbumsRpc,
  albumItemsHeldRpc,
  listSharedAlbumMediaItemsRpc,
  removeAlbumMediaItemsRpc,
  updateAlbumRpc,
} from '@trove/proto-events';
import { rpcCommand, rpcHandler } from '@trove/kit';
import type { AnyRpcHandler } from '@trove/kit';
import type { AlbumsService } from './albums/service';

/** The library's RPCs, one line each: the gateway calls them with the authenticated user's id (none for sharing). */
export function libraryHandlers(albums: AlbumsService): AnyRpcHandler[] {
  return [
    rpcHandler(createAlbumRpc, (req) => albums.create(req)),
    rpcHandler(listAlbumsRpc, async (req) => ({ albums: await albums.list(req) })),
    rpcHandler(getAlbumRpc, ({ userId, id }) => albums.get(userId, id)),
    rpcCommand(updateAlbumRpc, (req) => albums.update(req)),
    rpcCommand(deleteAlbumRpc, ({ userId, id }) => albums.delete(userId, id)),
    rpcHandler(listAlbumMediaItemsRpc, async (req) => ({ items: await albums.listItems(req) })),
    rpcCommand(addAlbumMediaItemsRpc, (r) => albums.addItems(r.userId, r.id, r.mediaItemIds)),
    rpcCommand(removeAlbumMediaItemsRpc, (r) => albums.removeItems(r.userId, r.id, r.mediaItemIds)),
    rpcHandler(albumItemsHeldRpc, async (r) => ({
      mediaItemIds: await albums.itemsHeld(r.userId, r.id, r.mediaItemIds),
    })),
    rpcHandler(listMediaItemAlbumsRpc, async (r) => ({ albums: await albums.albumsOfItem(r.userId, r.mediaItemId) })),
    rpcHandler(addAlbumMemberRpc, (r) => albums.addMember(r.userId, r.id, r.memberId, r.role)),
    rpcHandler(listAlbumMembersRpc, async (r) => ({ members: await albums.listMembers(r.userId, r.id) })),
    rpcCommand(removeAlbumMemberRpc, (r) => albums.removeMember(r.userId, r.id, r.memberId)),
    rpcHandler(checkMemberContentRpc, (r) => albums.memberContent(r.userId, r.albumId, r.mediaItemId)),
    rpcHandler(getSharedAlbumRpc, ({ id }) => albums.sharedAlbum(id)),
    rpcHandler(listSharedAlbumMediaItemsRpc, ({ id, page, limit }) => albums.sharedItems(id, page, limit)),
    rpcHandler(checkSharedContentRpc, ({ albumId, mediaItemId }) => albums.sharedContent(albumId, mediaItemId)),
    rpcHandler(unlockSharedAlbumRpc, ({ id, password }) => albums.unlockShared(id, password)),
  ];
}
