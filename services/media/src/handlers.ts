import { createMediaItem, getMediaItem, getMediaItems, listMediaItems, locateContent, setMediaFlag, updateMediaItem, yearsAgo } from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { MediaService } from './items/service';

/** The media service's calls (NATS request/reply, queue group "media"). */
export function mediaHandlers(media: MediaService) {
  return [
    rpcHandler(createMediaItem, (req) => media.create(req)),
    rpcHandler(getMediaItem, (req) => media.get(req.userId, req.id)),
    rpcHandler(listMediaItems, (req) => media.list(req)),
    rpcHandler(updateMediaItem, async (req) => {
      await media.update(req);
      return {};
    }),
    rpcHandler(setMediaFlag, async (req) => {
      await media.setFlag(req);
      return {};
    }),
    rpcHandler(yearsAgo, (req) => media.yearsAgo(req)),
    rpcHandler(getMediaItems, (req) => media.getMany(req.userId, req.ids)),
    rpcHandler(locateContent, (req) => media.locate(req)),
  ];
}
