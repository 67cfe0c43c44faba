import type { JobDoc, WalkedItem } from '../jobs/document';
import type { JobQueue } from './queue';

/** Records what a job publishes, keeping one entry per msgId as JetStream's de-duplication does. */
export class RecordingQueue implements JobQueue {
  readonly work: Array<{ jobId: string; mediaItemId: string; components: string[] }> = [];
  readonly rebuilds: string[] = [];
  /** Jobs that asked for people to be regrouped, with how many of their items were done then. */
  readonly regroups: Array<{ jobId: string; doneItems: number }> = [];
  /** How many items of a job are done now (set by the test's fake worker). */
  doneItems: (jobId: string) => number = () => 0;
  /** Every publish, duplicates included. */
  publishes = 0;
  /** Throws on the publish after this many (a runner dying mid-step); undefined: never. */
  failAfter: number | undefined;

  async publishWork(job: JobDoc, item: WalkedItem): Promise<void> {
    if (this.failAfter !== undefined && this.publishes >= this.failAfter) throw new Error('killed');
    this.publishes += 1;
    if (!this.work.some((w) => w.jobId === job._id && w.mediaItemId === item.id))
      this.work.push({ jobId: job._id, mediaItemId: item.id, components: job.work });
  }

  async requestSearchRebuild(job: JobDoc): Promise<void> {
    if (!this.rebuilds.includes(job._id)) this.rebuilds.push(job._id);
  }

  async requestPeopleRegroup(job: JobDoc): Promise<void> {
    if (!this.regroups.some((r) => r.jobId === job._id))
      this.regroups.push({ jobId: job._id, doneItems: this.doneItems(job._id) });
  }
}
