import { foreignBlobKeys } from '@trove/proto-events';
import type { MediaItemProcessedV1 } from '@trove/proto-events';
import type { Logger } from '@trove/kit';

/**
 * A processed result naming a blob outside its item's own prefix (`media/<userId>/<mediaItemId>/`) is
 * forged — the worker never makes one — so explore files nothing of it (no place, thing, face or search
 * entry): true, with a warning, for such a result.
 */
export function isForged(result: MediaItemProcessedV1, log: Logger): boolean {
  const foreign = foreignBlobKeys(result);
  if (!foreign.length) return false;
  log.warn(
    { mediaItemId: result.mediaItemId, userId: result.userId, foreignKeys: foreign.slice(0, 5) },
    "processing result ignored: it names blobs that are not its item's",
  );
  return true;
}
