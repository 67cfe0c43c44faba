import {
  createMediaItemRpc,
  mediaUsageRpc,
  getMediaItemRpc,
  getMediaItemsRpc,
  listMediaItemsRpc,
  locateContentRpc,
  setMediaFlagRpc,
  updateMediaItemRpc,
  walkMediaItemsRpc,
  yearsAgoRpc,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { MediaService } from './items/service';

/** The media service's calls (NATS request/reply, queue group "media"). */
export function mediaHandlers(media: MediaService) {
  return [
    rpcHandler(createMediaItemRpc, (req) => media.create(req)),
    rpcHandler(getMediaItemRpc, (req) => media.get(req.userId, req.id)),
    rpcHandler(listMediaItemsRpc, (req) => media.list(req)),
    rpcHandler(updateMediaItemRpc, async (req) => {
      await media.update(req);
      return {};
    }),
    rpcHandler(setMediaFlagRpc, async (req) => {
      await media.setFlag(req);
      return {};
    }),
    rpcHandler(yearsAgoRpc, (req) => media.yearsAgo(req)),
    rpcHandler(getMediaItemsRpc, (req) => media.getMany(req.userId, req.ids)),
    rpcHandler(locateContentRpc, (req) => media.locate(req)),
    rpcHandler(walkMediaItemsRpc, (req) => media.walk(req)),
    rpcHandler(mediaUsageRpc, (req) => media.usageOf(req.userId)),
  ];
}
