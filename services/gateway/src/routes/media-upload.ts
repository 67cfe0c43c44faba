import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createMediaItemRpc, getMediaItemRpc, mediaBlobKey, mediaUsageRpc } from '@trove/proto-events';
import { isAppError } from '@trove/kit';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import { answerRequestTimeout, liftBodyDeadline } from '../http/body-deadline';
import type { OperationRouter } from '../openapi/operation-router';
import { permittedComponents } from '../features/user-features';
import type { FeatureSource, PerUserSource } from '../features/recent-features';
import { requireUser } from '../security/authenticate';
import { UploadAbortedError, UploadStalledError, receiveUpload } from '../upload/receive';

export interface MediaUploadDeps {
  bus: Bus;
  blobs: BlobStore;
  log: Logger;
  /** The owner's features decide which components process the upload (app.ts: looked up at most every few seconds). */
  uploadFeatures: FeatureSource;
  /** The owner's storage quota in bytes, null: unlimited (app.ts: looked up at most every few seconds). */
  uploadQuotas: PerUserSource<number | null>;
  /** Largest accepted upload, in bytes (TROVE_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** An upload that sends nothing for this long is cut (TROVE_UPLOAD_IDLE_TIMEOUT_SECONDS). */
  uploadIdleTimeoutMs: number;
}

/**
 * POST /v1/mediaItems. Mounted before the body parsers and the OpenAPI validator: the multipart
 * body is streamed into the blob store here, never buffered (authentication has already run).
 * The id is chosen here, so the original lands under its final key while it streams in; the media
 * service then registers the item (409 for content the user already has) and queues processing.
 * Whatever fails, the stored original is removed again. An upload may take as long as it needs
 * while data flows (the body deadline of other calls is lifted), but one that stalls is cut.
 * Under a storage quota the room left (asked of the media service, which keeps each user's usage)
 * bounds the upload before and while it streams (507), and media checks it again, atomically,
 * when it registers the item.
 */
export function mediaUploadRoutes(routes: OperationRouter, deps: MediaUploadDeps): void {
  routes.handle('uploadMediaItem', async (req, res) => {
    const { userId } = requireUser(res);
    const id = randomUUID();
    const key = mediaBlobKey(userId, id, 'original');
    const discard = () =>
      deps.blobs.delete(key).catch((err) => deps.log.warn({ err, key }, 'could not remove a rejected upload'));
    let stored;
    liftBodyDeadline(req);
    const started = performance.now();
    let bodyEndedAt = NaN;
    req.once('end', () => (bodyEndedAt = performance.now()));
    // Asked while the bytes stream in, so the answer is there when they are stored.
    const features = deps.uploadFeatures.of(userId);
    features.catch(() => undefined); // awaited below, unless the upload fails first
    let quotaBytes: number | null;
    let roomBytes: number | undefined;
    try {
      quotaBytes = await deps.uploadQuotas.of(userId);
      if (quotaBytes !== null) roomBytes = quotaBytes - (await deps.bus.request(mediaUsageRpc, { userId })).usageBytes;
    } catch (err) {
      drainBriefly(req);
      throw err;
    }
    try {
      stored = await receiveUpload(req, {
        blobs: deps.blobs,
        key,
        maxBytes: deps.uploadMaxBytes,
        roomBytes,
        idleTimeoutMs: deps.uploadIdleTimeoutMs,
      });
    } catch (err) {
      await discard();
      if (err instanceof UploadAbortedError) {
        deps.log.info({ mediaItemId: id }, 'upload aborted by the client; nothing kept');
        return;
      }
      if (err instanceof UploadStalledError) {
        deps.log.info({ mediaItemId: id }, 'upload stalled; cut, nothing kept');
        answerRequestTimeout(res, err.message);
        return;
      }
      drainBriefly(req);
      throw err;
    }
    const request = {
      userId,
      id,
      filename: stored.filename,
      mimeType: stored.type.mimeType,
      mediaItemType: stored.type.mediaItemType,
      size: stored.size,
      sha256: stored.sha256,
      originalKey: key,
    };
    const storedAt = performance.now();
    // The original is whole and in place: the item is registered while the blob store makes its
    // name durable (the directory fsync), and the answer waits for both.
    let durableAt = NaN;
    const durable = stored.durable.then(() => (durableAt = performance.now()));
    durable.catch(() => undefined); // awaited below, also when the registration fails first
    try {
      const components = permittedComponents(await features);
      await deps.bus.request(createMediaItemRpc, { ...request, components, quotaBytes });
    } catch (err) {
      // No answer in time: the item may exist all the same. Keep the original if it does.
      if (isAppError(err) && err.code === 'UNAVAILABLE' && (await exists(deps.bus, userId, id))) {
        await durable;
        res.status(201).json({ id });
        return;
      }
      await durable.catch(() => undefined);
      await discard();
      throw err;
    }
    const registeredAt = performance.now();
    // The item exists now; should the disk fail to make the original's name durable, the upload
    // answers 500 and the item stays (a retry gets 409 naming it), as with any failed write.
    await durable;
    // Where an upload's time goes (`make bench` reads these): receiving the body, storing it after its
    // last byte (bytes durable, in place), registering the item, and its name durable (side by side).
    // The request's access log line carries them.
    const ms = (from: number, to: number) => Math.round((to - from) * 10) / 10;
    res.locals.accessLogFields = {
      mediaItemId: id,
      size: stored.size,
      receiveMs: ms(started, bodyEndedAt),
      commitMs: ms(bodyEndedAt, storedAt),
      registerMs: ms(storedAt, registeredAt),
      durableMs: ms(storedAt, durableAt),
    };
    res.status(201).json({ id });
  });
}

/** What a refused upload may still send before its connection is cut. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * After an early refusal (413, 400) the client is usually still sending. Closing at once makes
 * most clients fail with a broken pipe before they read the answer, so the rest of the body is
 * read and dropped, up to a bound; a client sending more than that is cut off.
 */
function drainBriefly(req: IncomingMessage): void {
  if (req.complete) return;
  let seen = 0;
  const cut = () => req.socket.destroy();
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_MAX_BYTES) cut();
  });
  req.on('end', () => clearTimeout(timer));
  req.on('close', () => clearTimeout(timer));
  req.resume();
}

async function exists(bus: Bus, userId: string, id: string): Promise<boolean> {
  try {
    await bus.request(getMediaItemRpc, { userId, id });
    return true;
  } catch {
    return false;
  }
}
