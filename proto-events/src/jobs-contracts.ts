import { defineEvent, defineRpc } from './contract';
import type {
  CreateJobRequestV1,
  EmptyV1,
  JobIdRequestV1,
  JobItemDoneV1,
  JobListV1,
  JobV1,
  ListJobsRequestV1,
  PeopleRegroupRequestedV1,
  SearchRebuildRequestedV1,
  UpdateJobRequestV1,
} from './generated/types';
import emptyV1 from './schemas/empty.v1.json';
import createJobRequestV1 from './schemas/job-create-request.v1.json';
import jobIdRequestV1 from './schemas/job-id-request.v1.json';
import jobItemDoneV1 from './schemas/job-item-done.v1.json';
import jobListRequestV1 from './schemas/job-list-request.v1.json';
import jobListV1 from './schemas/job-list.v1.json';
import updateJobRequestV1 from './schemas/job-update-request.v1.json';
import jobV1 from './schemas/job.v1.json';
import peopleRegroupV1 from './schemas/people-regroup.v1.json';
import searchRebuildV1 from './schemas/search-rebuild.v1.json';
import { registerSchemas } from './validate';

// A job list embeds jobs.
registerSchemas([jobV1]);

/**
 * Processing components by name. The worker's own (it runs them on an item); `search` is a job
 * component only (the user's index is rebuilt from what explore holds). Aliases are accepted
 * where users type names (`POST /v1/jobs`).
 */
export const WORKER_COMPONENTS = ['metadata', 'previews', 'places', 'things', 'faces', 'ocr'] as const;
export type WorkerComponent = (typeof WORKER_COMPONENTS)[number];
export const JOB_COMPONENTS = [...WORKER_COMPONENTS, 'search'] as const;
export type JobComponent = (typeof JOB_COMPONENTS)[number];
export const COMPONENT_ALIASES: Readonly<Record<string, JobComponent>> = { classification: 'things', people: 'faces' };

// ---- jobs: request/reply ---------------------------------------------------------------------
export const createJobRpc = defineRpc<CreateJobRequestV1, JobV1>({
  subject: 'trove.v1.jobs.create',
  service: 'jobs',
  callers: ['gateway'],
  summary:
    "Schedules a job over the caller's library; bad request for unknown or no components, conflict while another job is SCHEDULED, RUNNING or PAUSED.",
  request: createJobRequestV1,
  response: jobV1,
});

export const listJobsRpc = defineRpc<ListJobsRequestV1, JobListV1>({
  subject: 'trove.v1.jobs.list',
  service: 'jobs',
  callers: ['gateway'],
  summary: "One page of the caller's jobs, newest first.",
  request: jobListRequestV1,
  response: jobListV1,
});

export const getJobRpc = defineRpc<JobIdRequestV1, JobV1>({
  subject: 'trove.v1.jobs.get',
  service: 'jobs',
  callers: ['gateway'],
  summary: "One of the caller's jobs with its progress; not found otherwise.",
  request: jobIdRequestV1,
  response: jobV1,
});

export const updateJobRpc = defineRpc<UpdateJobRequestV1, EmptyV1>({
  subject: 'trove.v1.jobs.update',
  service: 'jobs',
  callers: ['gateway'],
  summary: 'Pauses, resumes or stops a job along the transition table; conflict for any other transition.',
  request: updateJobRequestV1,
  response: emptyV1,
});

// ---- jobs: events ----------------------------------------------------------------------------
export const jobItemDoneEvent = defineEvent<JobItemDoneV1>({
  subject: 'events.v1.job.item.done',
  publishers: ['worker'],
  consumers: ['jobs'],
  summary: "A worker finished one item of a job (processed, gone or failed): the job's progress counts it once.",
  payload: jobItemDoneV1,
});

/** The seam for the search index: a job with the `search` component asks for this; the search module subscribes. */
export const searchRebuildRequestedEvent = defineEvent<SearchRebuildRequestedV1>({
  subject: 'events.v1.search.rebuild.requested',
  publishers: ['jobs'],
  consumers: ['explore'],
  summary:
    "A job asked for the user's search index to be rebuilt: explore's search module re-reads each indexed item's texts, state and people's names.",
  payload: searchRebuildV1,
});

/** A job with the `faces` component, once every item is done, asks explore to group the user's faces again. */
export const peopleRegroupRequestedEvent = defineEvent<PeopleRegroupRequestedV1>({
  subject: 'events.v1.people.regroup.requested',
  publishers: ['jobs'],
  consumers: ['explore'],
  summary:
    "A job ran the faces component over the user's library: explore groups all their faces into people again, merging split people and keeping names and the user's corrections.",
  payload: peopleRegroupV1,
});

export const jobsContracts = [
  createJobRpc,
  listJobsRpc,
  getJobRpc,
  updateJobRpc,
  jobItemDoneEvent,
  searchRebuildRequestedEvent,
  peopleRegroupRequestedEvent,
];
