import type { CreateJobRequestV1, JobV1, UpdateJobRequestV1 } from '@trove/proto-events';
import { conflict, notFound } from '@trove/kit';
import { planOf } from './components';
import { toJobV1 } from './document';
import type { JobsRepository } from './repository';
import { allowed } from './transitions';

export const JOB_NOT_FOUND = 'job not found';
export const JOB_ALREADY_RUNNING = 'job already running';
export const INVALID_TRANSITION = 'invalid job status transition';

/** The users' side of jobs: create, read, pause/resume/stop. The runner (runner.ts) does the rest. */
export class JobsService {
  constructor(private readonly repo: JobsRepository) {}

  /** 400 for unknown or no components, 409 while the user has a SCHEDULED, RUNNING or PAUSED job. */
  async create({ userId, components, allowed: permitted }: CreateJobRequestV1): Promise<JobV1> {
    const plan = planOf(components, permitted);
    const job = await this.repo.create({ userId, components, work: plan.work, search: plan.search });
    if (!job) throw conflict(JOB_ALREADY_RUNNING);
    return toJobV1(job);
  }

  async list(userId: string, page: number, limit: number): Promise<JobV1[]> {
    return (await this.repo.list(userId, page, limit)).map(toJobV1);
  }

  async get(userId: string, id: string): Promise<JobV1> {
    const job = await this.repo.get(userId, id);
    if (!job) throw notFound(JOB_NOT_FOUND);
    return toJobV1(job);
  }

  /** A user's transition from the table; 409 for any other (also when the job moved on meanwhile). */
  async update({ userId, id, status }: UpdateJobRequestV1): Promise<void> {
    const job = await this.repo.get(userId, id);
    if (!job) throw notFound(JOB_NOT_FOUND);
    if (!allowed(job.status, status, 'user')) throw conflict(INVALID_TRANSITION);
    // Atomic on the status read: a runner completing the job at this moment wins or loses cleanly.
    const moved = await this.repo.transition(id, [job.status], status, { userId });
    if (!moved) throw conflict(INVALID_TRANSITION);
  }

  /** A worker finished an item of a job (reported once or more). */
  async itemDone(jobId: string, mediaItemId: string): Promise<boolean> {
    return this.repo.itemDone(jobId, mediaItemId);
  }

  async userDeleted(userId: string): Promise<void> {
    await this.repo.deleteUser(userId);
  }
}
