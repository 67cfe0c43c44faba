/** Jobs as the /jobs page shows and starts them (shared by server and browser). */
import type { Job, JobStatus } from '~/api/types';

/**
 * The processing components a job can run, in the order they run: the names `JobCreateRequest.components` accepts
 * in openapi.yaml (jobs.test.ts checks each against the contract's pattern).
 */
export const JOB_COMPONENTS = ['metadata', 'previews', 'places', 'things', 'people', 'ocr', 'search'] as const;
export type JobComponent = (typeof JOB_COMPONENTS)[number];

export const COMPONENT_LABEL: Record<JobComponent, string> = {
  metadata: 'Metadata (dates, camera, location)',
  previews: 'Previews and thumbnails',
  places: 'Places',
  things: 'Things',
  people: 'People (faces)',
  ocr: 'Text in photos',
  search: 'Search index',
};

/** The ticked components as the API takes them ("metadata,places"), or null when none is ticked. */
export function componentsParam(ticked: unknown[]): string | null {
  const chosen = JOB_COMPONENTS.filter((c) => ticked.includes(c));
  return chosen.length ? chosen.join(',') : null;
}

/** Statuses a job still changes from by itself: the page keeps asking while one is on screen. */
export function isActive(status: JobStatus): boolean {
  return status === 'SCHEDULED' || status === 'RUNNING';
}

/** What the user can do with a job in each status (the API's allowed transitions). */
export function jobControls(status: JobStatus): ('RUNNING' | 'PAUSED' | 'STOPPED')[] {
  switch (status) {
    case 'RUNNING':
      return ['PAUSED', 'STOPPED'];
    case 'PAUSED':
      return ['RUNNING', 'STOPPED'];
    case 'SCHEDULED':
      return ['STOPPED'];
    default:
      return [];
  }
}

export function progressLabel(job: Pick<Job, 'processed' | 'total'>): string {
  return job.total > 0
    ? `${job.processed.toLocaleString('en-GB')} of ${job.total.toLocaleString('en-GB')}`
    : `${job.processed.toLocaleString('en-GB')} processed`;
}
