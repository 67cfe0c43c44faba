import type { JobV1 } from '@trove/proto-events';

export type JobStatus = JobV1['status'];

/** Who asks for a transition: the user (PUT /v1/jobs/{id}) or the runner driving the job. */
export type Actor = 'user' | 'runner';

/**
 * The transition table (docs: user guide, "Jobs"). Anything not in it is refused: the same status
 * again, and everything out of COMPLETED or STOPPED, which are final.
 */
export const TRANSITIONS: ReadonlyArray<{ from: JobStatus; to: JobStatus; by: Actor }> = [
  { from: 'SCHEDULED', to: 'RUNNING', by: 'runner' },
  { from: 'RUNNING', to: 'PAUSED', by: 'user' },
  { from: 'PAUSED', to: 'RUNNING', by: 'user' },
  { from: 'SCHEDULED', to: 'STOPPED', by: 'user' },
  { from: 'RUNNING', to: 'STOPPED', by: 'user' },
  { from: 'PAUSED', to: 'STOPPED', by: 'user' },
  { from: 'RUNNING', to: 'COMPLETED', by: 'runner' },
];

export function allowed(from: JobStatus, to: JobStatus, by: Actor): boolean {
  return TRANSITIONS.some((t) => t.from === from && t.to === to && t.by === by);
}

/** The statuses a user's transition to `to` may start from. */
export function sourcesOf(to: JobStatus, by: Actor): JobStatus[] {
  return TRANSITIONS.filter((t) => t.to === to && t.by === by).map((t) => t.from);
}

/** A job in one of these holds the user's one active slot: a second job is refused meanwhile. */
export const ACTIVE: readonly JobStatus[] = ['SCHEDULED', 'RUNNING', 'PAUSED'];
export const isFinal = (status: JobStatus) => !ACTIVE.includes(status);
