import { randomUUID } from 'node:crypto';
import type { Logger } from '@trove/kit';
import type { MediaWalk } from '../ports/media';
import type { JobQueue } from '../ports/queue';
import type { JobDoc } from './document';
import type { JobsRepository } from './repository';

export interface RunnerOptions {
  /** Work items of one job queued and not yet done, at most. */
  maxInFlight: number;
  /** How long a runner's claim on a job lasts without renewal (a killed runner's job is taken over after it). */
  leaseMs: number;
  /** How often it looks for jobs to drive, and for room in flight. */
  pollMs: number;
  /** Items asked of the media service at once. */
  batch?: number;
}

export interface RunnerDeps {
  repo: JobsRepository;
  media: MediaWalk;
  queue: JobQueue;
  log: Logger;
  options: RunnerOptions;
  /** This runner's name on its leases (default: a fresh uuid per process). */
  owner?: string;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Drives jobs. Any number of runners (one per jobs replica) look for SCHEDULED and RUNNING jobs;
 * a runner drives a job only while it holds its lease, so exactly one drives it. Driving walks the
 * owner's items in (createdAt, id) order after the job's cursor; for each item it records the item,
 * moves the cursor (only while the job is RUNNING under this lease: a pause stops it right there),
 * then publishes its work (msgId per job and item). At most `maxInFlight` items are queued and not
 * done. When the walk is over and every item is done, the job is COMPLETED.
 *
 * A runner killed anywhere in that order loses nothing and repeats nothing: an item recorded but
 * perhaps not published is published again (the same msgId) by the next runner; an item the cursor
 * has passed is never walked again; an item recorded beyond the cursor is found recorded and not
 * published twice.
 */
export class JobRunner {
  readonly owner: string;
  private readonly driving = new Map<string, Promise<void>>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: RunnerDeps) {
    this.owner = deps.owner ?? randomUUID();
    this.sleep = deps.sleep ?? sleepFor;
  }

  /** Looks for jobs every `pollMs` until `stop()`. */
  start(): void {
    const loop = async () => {
      await this.tick().catch((err: unknown) => this.deps.log.error({ err }, 'could not look for jobs'));
      if (!this.stopped) this.timer = setTimeout(loop, this.deps.options.pollMs);
    };
    void loop();
  }

  /** Stops looking, lets every drive stop at its next step and gives up their leases. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.idle();
  }

  /** Resolves when no job is being driven by this runner. */
  async idle(): Promise<void> {
    while (this.driving.size > 0) await Promise.allSettled([...this.driving.values()]);
  }

  /** One look: leases the jobs it can and drives each in the background. */
  async tick(): Promise<void> {
    const { repo, options } = this.deps;
    for (const candidate of await repo.claimable(10)) {
      if (this.stopped || this.driving.has(candidate._id)) continue;
      const job = await repo.lease(candidate._id, this.owner, options.leaseMs);
      if (!job) continue; // another runner was quicker
      const drive = this.drive(job)
        .catch((err: unknown) =>
          this.deps.log.error({ err, jobId: job._id }, 'job run interrupted; it goes on at the next look'),
        )
        .finally(async () => {
          await repo.release(job._id, this.owner).catch(() => undefined);
          this.driving.delete(job._id);
        });
      this.driving.set(job._id, drive);
    }
  }

  private async drive(leased: JobDoc): Promise<void> {
    const { repo, media, queue, log, options } = this.deps;
    let job = leased;
    const until = job.createdAt.toISOString();
    if (job.status === 'SCHEDULED') {
      const { total } = await media.walk({ userId: job.userId, until, limit: 1 });
      const started = await repo.transition(job._id, ['SCHEDULED'], 'RUNNING', {
        leaseOwner: this.owner,
        set: { total: job.work.length > 0 ? total : 0 },
      });
      if (!started) return;
      job = started;
      log.info({ jobId: job._id, components: job.components, total: job.total }, 'job started');
      if (job.search) await queue.requestSearchRebuild(job);
    }
    const lease = new LeaseKeeper(repo, job._id, this.owner, options.leaseMs);
    // A previous runner may have stopped between recording an item and publishing its work.
    for (const item of await repo.queuedItems(job._id)) {
      await queue.publishWork(job, item);
      await repo.markPublished(job._id, item.id);
    }
    let cursor = job.cursor;
    const batch = options.batch ?? 100;
    for (let more = job.work.length > 0; more;) {
      const { items } = await media.walk({
        userId: job.userId,
        until,
        limit: batch,
        ...(cursor ? { after: { id: cursor.id, createdAt: cursor.createdAt.toISOString() } } : {}),
      });
      for (const item of items) {
        if (!(await this.roomFor(job, lease, options.maxInFlight))) return;
        const recorded = await repo.recordItem(job, item);
        const next = { id: item.id, createdAt: new Date(item.createdAt) };
        if (!(await repo.advance(job._id, this.owner, next))) {
          // Paused or stopped (or the lease lost) just now: this item is not the job's yet.
          if (recorded.fresh) await repo.forgetItem(job._id, item.id);
          return;
        }
        cursor = next;
        if (recorded.state !== 'queued') continue; // a previous runner published it already
        await queue.publishWork(job, item);
        await repo.markPublished(job._id, item.id);
      }
      more = items.length === batch;
    }
    if (!(await this.roomFor(job, lease, 1))) return; // every item done
    // New faces are all filed: explore groups the user's faces again (merging split people). Asked
    // before completing, so a runner dying in between asks again (the same msgId) rather than never.
    if (job.work.includes('faces')) await queue.requestPeopleRegroup(job);
    const completed = await repo.transition(job._id, ['RUNNING'], 'COMPLETED', {
      leaseOwner: this.owner,
      set: { total: await repo.walked(job._id) },
    });
    if (completed) log.info({ jobId: job._id, done: completed.done, total: completed.total }, 'job completed');
  }

  /** Waits until fewer than `limit` items of the job are in flight; false when the job is no longer this runner's RUNNING job. */
  private async roomFor(job: JobDoc, lease: LeaseKeeper, limit: number): Promise<boolean> {
    for (;;) {
      if (this.stopped || !(await lease.keep())) return false;
      if ((await this.deps.repo.inFlight(job._id)) < limit) return true;
      await this.sleep(this.deps.options.pollMs);
    }
  }
}

/** Renews a lease when a third of it has passed; false once the job is not RUNNING under it. */
class LeaseKeeper {
  private renewAt = 0;

  constructor(
    private readonly repo: JobsRepository,
    private readonly jobId: string,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  async keep(): Promise<boolean> {
    if (Date.now() < this.renewAt) return true;
    const job = await this.repo.lease(this.jobId, this.owner, this.leaseMs);
    if (!job || job.status !== 'RUNNING') return false;
    this.renewAt = Date.now() + this.leaseMs / 3;
    return true;
  }
}
