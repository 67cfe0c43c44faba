import {
  createMediaItemRpc,
  mediaExistRpc,
  mediaUsageRpc,
  getMediaItemRpc,
  getMediaItemsRpc,
  listMediaItemsRpc,
  locateContentRpc,
  purgeMediaItemsRpc,
  emptyTrashRpc,
  setMediaFlagRpc,
  timelineBucketsRpc,
  updateMediaItemRpc,
  walkMediaItemsRpc,
  yearsAgoRpc,
} from '@trove/proto-events';
import { rpcCommand, rpcHandler } from '@trove/kit';
import type { AnyRpcHandler } from '@trove/kit';
import type { MediaItemsService } from './media-items/service';

/** The media service's calls (NATS request/reply, queue group "media"), one line each. */
export function mediaHandlers(media: MediaItemsService): AnyRpcHandler[] {
  return [
    rpcHandler(createMediaItemRpc, (req) => media.create(req)),
    rpcHandler(getMediaItemRpc, (req) => media.get(req.userId, req.id)),
    rpcHandler(listMediaItemsRpc, (req) => media.list(req)),
    rpcCommand(updateMediaItemRpc, (req) => media.update(req)),
    rpcCommand(setMediaFlagRpc, (req) => media.setFlag(req)),
    rpcCommand(purgeMediaItemsRpc, (req) => media.purgeTrashed(req)),
    rpcHandler(emptyTrashRpc, (req) => media.emptyTrash(req)),
    rpcHandler(yearsAgoRpc, (req) => media.yearsAgo(req)),
    rpcHandler(getMediaItemsRpc, (req) => media.getMany(req.userId, req.ids)),
    rpcHandler(locateContentRpc, (req) => media.locate(req)),
    rpcHandler(walkMediaItemsRpc, (req) => media.walk(req)),
    rpcHandler(timelineBucketsRpc, (req) => media.timeline(req)),
    rpcHandler(mediaUsageRpc, (req) => media.usageOf(req.userId)),
    rpcHandler(mediaExistRpc, (req) => media.existing(req.userId, req.sha256)),
  ];
}
