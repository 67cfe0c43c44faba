import { DuplicateKeyError, instantOf } from '@trove/kit';
import type { ListMediaItemsRequestV1, TimelineBucketsRequestV1 } from '@trove/proto-events';
import { shownCategory } from './document';
import type { MediaDoc, MediaType, ProcessedFields } from './document';
import { EMPTYING_CLAIM } from './repository';
import type { ItemChanges, MediaItems, StillFlags, View } from './repository';

type Order = Array<[keyof MediaDoc, 1 | -1]>;
const ORDER: Record<'default' | 'trash', Order> = {
  default: [
    ['creationAt', -1],
    ['_id', -1],
  ],
  trash: [
    ['deletedAt', -1],
    ['creationAt', -1],
    ['_id', -1],
  ],
};

function compare(a: MediaDoc, b: MediaDoc, order: Order): number {
  for (const [field, direction] of order) {
    const [x, y] = [a[field], b[field]].map((v) => (v instanceof Date ? v.getTime() : v)) as Array<
      string | number | null
    >;
    if (x !== y) return (x === null ? -1 : y === null ? 1 : x < y ? -1 : 1) * direction;
  }
  return 0;
}

/** A deep copy (Dates included: structuredClone's come from another realm under jest), as a store hands out. */
function detach<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(detach) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, detach(v)])) as T;
  return value;
}

const inView: Record<View, (d: MediaDoc) => boolean> = {
  library: (d) => !d.stillMediaItemId && !d.deleted && !d.hidden,
  favourites: (d) => !d.stillMediaItemId && !d.deleted && !d.hidden && d.favourite,
  hidden: (d) => !d.stillMediaItemId && !d.deleted && d.hidden,
  trash: (d) => !d.stillMediaItemId && d.deleted && !d.purgingAt,
};

/**
 * The media repository in memory, with the same answers as `MediaItemsRepository` (the service's suite
 * runs against both): for unit tests of the service, and for races a real store cannot be made to lose.
 */
export class FakeMediaItems implements MediaItems {
  private readonly docs = new Map<string, MediaDoc>();

  async insert(doc: MediaDoc): Promise<{ duplicateOf?: string }> {
    const existing = [...this.docs.values()].find((d) => d.userId === doc.userId && d.sha256 === doc.sha256);
    if (existing) return { duplicateOf: existing._id };
    if (this.docs.has(doc._id)) throw new DuplicateKeyError('media_items');
    this.docs.set(doc._id, detach(doc));
    return {};
  }

  async get(userId: string, id: string): Promise<MediaDoc | null> {
    return this.copy(this.mine(userId, [id])[0]);
  }

  async getAnyUser(id: string): Promise<MediaDoc | null> {
    return this.copy(this.docs.get(id));
  }

  async getMany(userId: string, ids: string[]): Promise<MediaDoc[]> {
    return this.copies(this.mine(userId, ids));
  }

  async withContents(userId: string, sha256: string[]): Promise<Array<{ id: string; sha256: string }>> {
    const wanted = new Set(sha256);
    return this.where((d) => d.userId === userId && wanted.has(d.sha256)).map((d) => ({ id: d._id, sha256: d.sha256 }));
  }

  async sizeOfUser(userId: string): Promise<number> {
    return this.where((d) => d.userId === userId).reduce((sum, d) => sum + d.size, 0);
  }

  async countOwned(userId: string, ids: string[]): Promise<number> {
    return this.mine(userId, ids).length;
  }

  async list(q: ListMediaItemsRequestV1): Promise<MediaDoc[]> {
    const before = q.takenBefore ? instantOf(q.takenBefore).getTime() : Infinity;
    const after = q.after && { time: new Date(q.after.creationTime).getTime(), id: q.after.id };
    const isAfter = (d: MediaDoc) =>
      !after || d.creationAt.getTime() < after.time || (d.creationAt.getTime() === after.time && d._id < after.id);
    const found = this.where((d) => this.listed(q, d) && d.creationAt.getTime() <= before && isAfter(d));
    return this.page(found, ORDER[q.view === 'trash' ? 'trash' : 'default'], q.page, q.limit);
  }

  async monthCounts(q: TimelineBucketsRequestV1): Promise<Array<{ month: string; count: number }>> {
    const counts = new Map<string, number>();
    for (const d of this.where((d) => this.listed(q, d))) {
      const month = d.creationAt.toISOString().slice(0, 7);
      counts.set(month, (counts.get(month) ?? 0) + 1);
    }
    return [...counts].sort(([a], [b]) => (a < b ? 1 : -1)).map(([month, count]) => ({ month, count }));
  }

  private listed(q: Omit<ListMediaItemsRequestV1, 'page' | 'limit'>, d: MediaDoc): boolean {
    return (
      d.userId === q.userId &&
      inView[q.view](d) &&
      (!q.type || d.mediaItemType === q.type) &&
      (!q.category || shownCategory(d) === q.category) &&
      (!q.status || d.status === q.status)
    );
  }

  async takenOn(
    userId: string,
    monthDay: string,
    beforeYear: number,
    page: number,
    limit: number,
  ): Promise<MediaDoc[]> {
    const found = this.where(
      (d) => d.userId === userId && inView.library(d) && d.creationMonthDay === monthDay && d.creationYear < beforeYear,
    );
    return this.page(found, ORDER.default, page, limit);
  }

  async update(userId: string, id: string, changes: ItemChanges, at: Date): Promise<MediaDoc | null> {
    const [doc] = this.mine(userId, [id]);
    return doc ? this.copy(Object.assign(doc, detach(changes), { updatedAt: at })) : null;
  }

  async setFlag(userId: string, ids: string[], flag: 'favourite' | 'hidden', value: boolean, at: Date): Promise<void> {
    for (const doc of this.mine(userId, ids))
      if (doc[flag] !== value) Object.assign(doc, { [flag]: value, updatedAt: at });
  }

  async trash(userId: string, ids: string[], at: Date): Promise<void> {
    for (const doc of this.mine(userId, ids))
      if (!doc.deleted) Object.assign(doc, { deleted: true, deletedAt: at, updatedAt: at });
  }

  async restore(userId: string, ids: string[], at: Date): Promise<void> {
    for (const doc of this.mine(userId, ids))
      if (doc.deleted && !doc.purgingAt) Object.assign(doc, { deleted: false, deletedAt: null, updatedAt: at });
  }

  async setProcessed(userId: string, id: string, fields: Partial<ProcessedFields>, at: Date): Promise<boolean> {
    const [doc] = this.mine(userId, [id]);
    if (doc) Object.assign(doc, detach(fields), { updatedAt: at });
    return !!doc;
  }

  async pairCandidates(userId: string, contentIdentifier: string, type: MediaType): Promise<MediaDoc[]> {
    const found = this.where(
      (d) =>
        d.userId === userId &&
        d.metadata.contentIdentifier === contentIdentifier &&
        d.mediaItemType === type &&
        d.status === 'READY' &&
        !d.purgingAt,
    );
    return this.copies(found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : 1)));
  }

  async claimMotionPart(userId: string, videoId: string, stillId: string, at: Date): Promise<MediaDoc | null> {
    const [doc] = this.mine(userId, [videoId]).filter(
      (d) => d.mediaItemType === 'video' && [null, undefined, stillId].includes(d.stillMediaItemId) && !d.purgingAt,
    );
    return doc ? this.copy(Object.assign(doc, { stillMediaItemId: stillId, updatedAt: at })) : null;
  }

  async linkMotionPart(userId: string, stillId: string, videoId: string, at: Date): Promise<MediaDoc | null> {
    const [doc] = this.mine(userId, [stillId]).filter(
      (d) => d.mediaItemType === 'photo' && [null, undefined, videoId].includes(d.motionMediaItemId) && !d.purgingAt,
    );
    return doc ? this.copy(Object.assign(doc, { motionMediaItemId: videoId, updatedAt: at })) : null;
  }

  async followStill(userId: string, videoId: string, still: StillFlags, at: Date): Promise<void> {
    const { favourite, hidden, deleted, deletedAt } = still;
    for (const doc of this.mine(userId, [videoId]))
      if (doc.stillMediaItemId === still._id)
        Object.assign(doc, detach({ favourite, hidden, deleted, deletedAt }), { updatedAt: at });
  }

  async releaseMotionPart(userId: string, videoId: string, stillId: string, at: Date): Promise<boolean> {
    const [doc] = this.mine(userId, [videoId]).filter((d) => d.stillMediaItemId === stillId);
    if (doc) Object.assign(doc, { stillMediaItemId: null, updatedAt: at });
    return !!doc;
  }

  async unlinkMotionPart(userId: string, stillId: string, videoId: string, at: Date): Promise<boolean> {
    const [doc] = this.mine(userId, [stillId]).filter((d) => d.motionMediaItemId === videoId);
    if (doc) Object.assign(doc, { motionMediaItemId: null, updatedAt: at });
    return !!doc;
  }

  async setFailed(userId: string, id: string, reason: string, at: Date): Promise<MediaDoc | null> {
    const [doc] = this.mine(userId, [id]).filter((d) => d.status === 'PROCESSING');
    return doc ? this.copy(Object.assign(doc, { status: 'FAILED', failureReason: reason, updatedAt: at })) : null;
  }

  async purgeable(cutoff: Date, staleBefore: Date, limit: number): Promise<MediaDoc[]> {
    return this.copies(this.where((d) => this.isPurgeable(d, cutoff, staleBefore)).slice(0, limit));
  }

  async claimForPurge(id: string, cutoff: Date, staleBefore: Date, at: Date): Promise<MediaDoc | null> {
    const doc = this.docs.get(id);
    return doc && this.isPurgeable(doc, cutoff, staleBefore) ? this.copy(Object.assign(doc, { purgingAt: at })) : null;
  }

  async markTrashEmptied(userId: string): Promise<number> {
    const trash = this.where((d) => d.userId === userId && inView.trash(d));
    for (const doc of trash) doc.purgingAt = new Date(EMPTYING_CLAIM);
    return trash.length;
  }

  async abandonedClaims(staleBefore: Date, limit: number): Promise<MediaDoc[]> {
    return this.copies(this.where((d) => this.isAbandoned(d, staleBefore)).slice(0, limit));
  }

  async claimAbandoned(id: string, staleBefore: Date, at: Date): Promise<MediaDoc | null> {
    const doc = this.docs.get(id);
    return doc && this.isAbandoned(doc, staleBefore) ? this.copy(Object.assign(doc, { purgingAt: at })) : null;
  }

  async countByStatus(): Promise<Record<MediaDoc['status'], number>> {
    const counts = { UNSPECIFIED: 0, PROCESSING: 0, READY: 0, FAILED: 0 };
    for (const d of this.docs.values()) counts[d.status] += 1;
    return counts;
  }

  async stuckInProcessing(before: Date, limit: number): Promise<MediaDoc[]> {
    return this.copies(this.where((d) => d.status === 'PROCESSING' && d.updatedAt < before).slice(0, limit));
  }

  async claimStuck(id: string, before: Date, at: Date): Promise<MediaDoc | null> {
    const doc = this.docs.get(id);
    if (!doc || doc.status !== 'PROCESSING' || !(doc.updatedAt < before)) return null;
    return this.copy(Object.assign(doc, { updatedAt: at, requeues: (doc.requeues ?? 0) + 1 }));
  }

  async walk(userId: string, until: Date, limit: number, after?: { createdAt: Date; id: string }): Promise<MediaDoc[]> {
    const key = (d: { createdAt: Date; _id: string }) => [d.createdAt.getTime(), d._id] as const;
    const later = (d: MediaDoc) =>
      !after || key(d)[0] > after.createdAt.getTime() || (key(d)[0] === after.createdAt.getTime() && d._id > after.id);
    const walked = this.where((d) => d.userId === userId && d.createdAt <= until && !d.purgingAt && later(d));
    walked.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0),
    );
    return this.copies(walked.slice(0, limit));
  }

  async countWalk(userId: string, until: Date): Promise<number> {
    return this.where((d) => d.userId === userId && d.createdAt <= until && !d.purgingAt).length;
  }

  async ofUser(userId: string, limit: number): Promise<MediaDoc[]> {
    return this.copies(this.where((d) => d.userId === userId).slice(0, limit));
  }

  async delete(userId: string, id: string): Promise<void> {
    if (this.docs.get(id)?.userId === userId) this.docs.delete(id);
  }

  private isAbandoned(d: MediaDoc, staleBefore: Date): boolean {
    return d.deleted && !!d.purgingAt && d.purgingAt < staleBefore;
  }

  private isPurgeable(d: MediaDoc, cutoff: Date, staleBefore: Date): boolean {
    return d.deleted && !!d.deletedAt && d.deletedAt <= cutoff && (!d.purgingAt || d.purgingAt < staleBefore);
  }

  private mine(userId: string, ids: string[]): MediaDoc[] {
    return [...new Set(ids)].flatMap((id) => {
      const doc = this.docs.get(id);
      return doc?.userId === userId ? [doc] : [];
    });
  }

  private where(match: (d: MediaDoc) => boolean): MediaDoc[] {
    return [...this.docs.values()].filter(match);
  }

  private page(docs: MediaDoc[], order: Order, page: number, limit: number): MediaDoc[] {
    return this.copies(docs.sort((a, b) => compare(a, b, order)).slice((page - 1) * limit, page * limit));
  }

  private copy(doc: MediaDoc | undefined): MediaDoc | null {
    return doc ? detach(doc) : null;
  }

  private copies(docs: MediaDoc[]): MediaDoc[] {
    return docs.map((d) => detach(d));
  }
}
