import type { Logger } from '@trove/kit';
import type { MediaDoc } from './document';
import type { ItemChanges, MediaItems } from './repository';

/** Announces that an item changed (a media.updated event). */
export type Announce = (userId: string, mediaItemId: string, at: Date) => Promise<void>;

export interface LivePhotosDeps {
  items: MediaItems;
  announce: Announce;
  log: Logger;
  now: () => Date;
}

/**
 * Apple Live Photos: a still and a video of one user with the same `metadata.contentIdentifier`
 * (the worker reads it from the still's maker notes and the video's QuickTime keys) are one item.
 * The still links its motion part (`motionMediaItemId`, shown as category `live`); the video links
 * its still (`stillMediaItemId`), which keeps it out of lists, and follows the still's flags.
 *
 * Pairing is race-safe without locks: every result, whichever part it is for, is written first
 * and then looks for the other part, so of two results applied at once at least one finds the
 * other. Linking claims the video first, then the still, each with a conditional atomic update
 * that admits only "free or already ours": replicas linking the same pair both succeed (the writes
 * are idempotent), and a part already paired elsewhere makes the other attempt give up (releasing
 * the video it claimed). A redelivered result completes a pairing a crash left half-done.
 */
export class LivePhotos {
  constructor(private readonly deps: LivePhotosDeps) {}

  /** Pairs a READY item with its other part, when the library has it. */
  async pair(doc: MediaDoc): Promise<void> {
    const contentIdentifier = doc.metadata.contentIdentifier;
    if (!contentIdentifier || doc.status !== 'READY' || doc.purgingAt || doc.motionMediaItemId) return;
    const isStill = doc.mediaItemType === 'photo';
    const candidates = await this.deps.items.pairCandidates(doc.userId, contentIdentifier, isStill ? 'video' : 'photo');
    // A video claimed for a still (then a crash) pairs with that still only, or is on its own again.
    const partners = doc.stillMediaItemId ? candidates.filter((c) => c._id === doc.stillMediaItemId) : candidates;
    for (const partner of partners) {
      const [still, video] = isStill ? [doc, partner] : [partner, doc];
      if (await this.link(still, video)) return;
    }
    if (doc.stillMediaItemId) await this.release(doc.userId, doc._id, doc.stillMediaItemId);
  }

  /** `ids` and the motion parts of the stills among them: what a flag set on a still applies to. */
  async withMotionParts(userId: string, ids: string[]): Promise<string[]> {
    const stills = await this.deps.items.getMany(userId, ids);
    return [...new Set([...ids, ...stills.flatMap((d) => (d.motionMediaItemId ? [d.motionMediaItemId] : []))])];
  }

  /** A still's favourite or hidden changed: its motion part follows. */
  async stillChanged(still: MediaDoc, changes: ItemChanges): Promise<void> {
    if (!still.motionMediaItemId || (changes.favourite === undefined && changes.hidden === undefined)) return;
    await this.deps.items.followStill(still.userId, still.motionMediaItemId, still, still.updatedAt);
  }

  /**
   * One part is purged: the other is on its own again (a still shows its own category, a video is
   * listed). A still also lets go of a video claimed for it by a pairing that never finished.
   */
  async unpair(doc: MediaDoc): Promise<void> {
    const { items } = this.deps;
    if (doc.stillMediaItemId) {
      const at = this.deps.now();
      if (await items.unlinkMotionPart(doc.userId, doc.stillMediaItemId, doc._id, at))
        await this.deps.announce(doc.userId, doc.stillMediaItemId, at);
    }
    if (doc.mediaItemType !== 'photo') return;
    const claimed = doc.metadata.contentIdentifier
      ? await items.pairCandidates(doc.userId, doc.metadata.contentIdentifier, 'video')
      : [];
    const videoIds = new Set([
      ...(doc.motionMediaItemId ? [doc.motionMediaItemId] : []),
      ...claimed.filter((v) => v.stillMediaItemId === doc._id).map((v) => v._id),
    ]);
    for (const videoId of videoIds) await this.release(doc.userId, videoId, doc._id);
  }

  /** The video is no longer the motion part of `stillId` (announced when that changed something). */
  private async release(userId: string, videoId: string, stillId: string): Promise<void> {
    const at = this.deps.now();
    if (await this.deps.items.releaseMotionPart(userId, videoId, stillId, at))
      await this.deps.announce(userId, videoId, at);
  }

  private async link(still: MediaDoc, video: MediaDoc): Promise<boolean> {
    if (still.motionMediaItemId === video._id && video.stillMediaItemId === still._id) return true;
    const { items } = this.deps;
    const at = this.deps.now();
    if (!(await items.claimMotionPart(video.userId, video._id, still._id, at))) return false;
    const linked = await items.linkMotionPart(still.userId, still._id, video._id, at);
    if (!linked) {
      // The still has another motion part, or is being purged: the video stays on its own.
      await items.releaseMotionPart(video.userId, video._id, still._id, at);
      return false;
    }
    // Flags as the still has them now: a trashed still's motion part is purged with it.
    await items.followStill(video.userId, video._id, linked, at);
    await this.deps.announce(video.userId, video._id, at);
    await this.deps.announce(still.userId, still._id, at);
    this.deps.log.info({ mediaItemId: still._id, motionMediaItemId: video._id }, 'live photo paired');
    return true;
  }
}
