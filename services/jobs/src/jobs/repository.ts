import { randomUUID } from 'node:crypto';
import { clockOf, DocRepository, DuplicateKeyError, openCollections } from '@trove/kit';
import type { DocStore, RepositoryOptions, Filter } from '@trove/kit';
import { JOB_ITEMS, JOBS } from './document';
import type { JobDoc, JobItemDoc, WalkedItem } from './document';
import type { JobStatus } from './transitions';

export interface NewJob {
  userId: string;
  components: string;
  work: string[];
  search: boolean;
}

const itemId = (jobId: string, mediaItemId: string) => `${jobId}:${mediaItemId}`;

const COLLECTIONS = { jobs: JOBS, items: JOB_ITEMS };

/** Jobs and their items in the jobs service's document store: the only code speaking its dialect. */
export class JobsRepository extends DocRepository<typeof COLLECTIONS> {
  static async open(store: DocStore, opts: RepositoryOptions = {}): Promise<JobsRepository> {
    return new JobsRepository(await openCollections(store, COLLECTIONS), clockOf(opts));
  }

  // ---- jobs -----------------------------------------------------------------------------------

  /** The new SCHEDULED job, or null when the user has an active one. */
  async create(job: NewJob): Promise<JobDoc | null> {
    const now = this.now();
    const doc: JobDoc = {
      _id: randomUUID(),
      ...job,
      status: 'SCHEDULED',
      activeUserId: job.userId,
      cursor: null,
      done: 0,
      total: 0,
      leaseOwner: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      return await this.c.jobs.insertOne(doc);
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
  }

  async get(userId: string, id: string): Promise<JobDoc | null> {
    return this.c.jobs.findOne({ _id: id, userId });
  }

  async byId(id: string): Promise<JobDoc | null> {
    return this.c.jobs.findOne({ _id: id });
  }

  /** Newest first (ties by id, so pages never overlap). */
  async list(userId: string, page: number, limit: number): Promise<JobDoc[]> {
    return this.c.jobs.find({ userId }, { sort: { createdAt: -1, _id: -1 }, skip: (page - 1) * limit, limit });
  }

  /**
   * Moves the job to `to` if it is in one of `from` (and, for the runner, still holds the lease):
   * one atomic step, so a pause and the runner's completion cannot both win. A final status frees
   * the user's active slot and the lease. The job after the change, or null when it did not apply.
   */
  async transition(
    id: string,
    from: JobStatus[],
    to: JobStatus,
    opts: { userId?: string; leaseOwner?: string; set?: Partial<JobDoc> } = {},
  ): Promise<JobDoc | null> {
    const filter: Filter = { _id: id, status: { $in: from } };
    if (opts.userId) filter.userId = opts.userId;
    if (opts.leaseOwner) filter.leaseOwner = opts.leaseOwner;
    const final = to === 'COMPLETED' || to === 'STOPPED';
    return this.c.jobs.findOneAndUpdate(filter, {
      $set: {
        ...opts.set,
        status: to,
        updatedAt: this.now(),
        ...(final ? { leaseOwner: null, leaseUntil: null } : {}),
      },
      ...(final ? { $unset: { activeUserId: true as const } } : {}),
    });
  }

  /** Jobs a runner may take: SCHEDULED or RUNNING, with no lease or an expired one. */
  async claimable(limit: number): Promise<JobDoc[]> {
    return this.c.jobs.find(
      { status: { $in: ['SCHEDULED', 'RUNNING'] }, $or: [{ leaseOwner: null }, { leaseUntil: { $lt: this.now() } }] },
      { sort: { createdAt: 1 }, limit },
    );
  }

  /** Takes (or renews) the lease of a SCHEDULED or RUNNING job for `owner`; null when another holds it or the job moved on. */
  async lease(id: string, owner: string, forMs: number): Promise<JobDoc | null> {
    const now = this.now();
    return this.c.jobs.findOneAndUpdate(
      {
        _id: id,
        status: { $in: ['SCHEDULED', 'RUNNING'] },
        $or: [{ leaseOwner: null }, { leaseOwner: owner }, { leaseUntil: { $lt: now } }],
      },
      { $set: { leaseOwner: owner, leaseUntil: new Date(now.getTime() + forMs) } },
    );
  }

  async release(id: string, owner: string): Promise<void> {
    await this.c.jobs.updateOne({ _id: id, leaseOwner: owner }, { $set: { leaseOwner: null, leaseUntil: null } });
  }

  /** Moves the cursor past an item, only while the job is RUNNING under `owner`'s lease: a paused job's cursor stays still. */
  async advance(id: string, owner: string, cursor: { id: string; createdAt: Date }): Promise<boolean> {
    const res = await this.c.jobs.updateOne(
      { _id: id, status: 'RUNNING', leaseOwner: owner },
      { $set: { cursor, updatedAt: this.now() } },
    );
    return res.matched > 0;
  }

  // ---- items ----------------------------------------------------------------------------------

  /** Records an item of the job as queued; an item already recorded keeps its state. Answers its state. */
  async recordItem(
    job: Pick<JobDoc, '_id' | 'userId'>,
    work: WalkedItem,
  ): Promise<{ state: JobItemDoc['state']; fresh: boolean }> {
    const doc: JobItemDoc = {
      _id: itemId(job._id, work.id),
      jobId: job._id,
      userId: job.userId,
      mediaItemId: work.id,
      state: 'queued',
      work,
    };
    try {
      await this.c.items.insertOne(doc);
      return { state: 'queued', fresh: true };
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.c.items.findOne({ _id: doc._id });
      return { state: existing?.state ?? 'queued', fresh: false };
    }
  }

  async forgetItem(jobId: string, mediaItemId: string): Promise<void> {
    await this.c.items.deleteOne({ _id: itemId(jobId, mediaItemId), state: 'queued' });
  }

  async markPublished(jobId: string, mediaItemId: string): Promise<void> {
    await this.c.items.updateOne(
      { _id: itemId(jobId, mediaItemId), state: 'queued' },
      { $set: { state: 'published' } },
    );
  }

  /** Items recorded but perhaps never published (the runner stopped in between). */
  async queuedItems(jobId: string): Promise<WalkedItem[]> {
    return (await this.c.items.find({ jobId, state: 'queued' })).map((i) => i.work);
  }

  async inFlight(jobId: string): Promise<number> {
    return this.c.items.count({ jobId, state: { $ne: 'done' } });
  }

  async walked(jobId: string): Promise<number> {
    return this.c.items.count({ jobId });
  }

  /**
   * The worker finished an item: it is done, and the job's `done` becomes the count of its done
   * items (only ever upwards: a late writer with an older count changes nothing). False when the
   * job has no such item (a deleted job's late report).
   */
  async itemDone(jobId: string, mediaItemId: string): Promise<boolean> {
    const res = await this.c.items.updateOne({ _id: itemId(jobId, mediaItemId) }, { $set: { state: 'done' } });
    if (res.matched === 0) return false;
    const done = await this.c.items.count({ jobId, state: 'done' });
    await this.c.jobs.updateOne({ _id: jobId, done: { $lt: done } }, { $set: { done, updatedAt: this.now() } });
    return true;
  }

  // ---- users ----------------------------------------------------------------------------------

  /** Stops the user's active job (its runner sees that and stops queueing), then removes every job and item of the user. */
  async deleteUser(userId: string): Promise<void> {
    await this.c.jobs.updateMany(
      { userId, status: { $in: ['SCHEDULED', 'RUNNING', 'PAUSED'] } },
      { $set: { status: 'STOPPED', updatedAt: this.now() }, $unset: { activeUserId: true } },
    );
    await this.c.items.deleteMany({ userId });
    await this.c.jobs.deleteMany({ userId });
  }
}
