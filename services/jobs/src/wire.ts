import type { WireDeps, Wiring } from '@trove/kit';
import { consumeJobsEvents } from './events';
import { jobsHandlers } from './handlers';
import { JobsRepository } from './jobs/repository';
import { JobRunner } from './jobs/runner';
import type { RunnerOptions } from './jobs/runner';
import { JobsService } from './jobs/service';
import { mediaWalkOverBus } from './ports/media';
import { jobQueueOverBus } from './ports/queue';

export interface JobsDeps extends WireDeps {
  /** The runner's bounds (TROVE_JOBS_* variables). */
  runner: RunnerOptions;
}

export interface Jobs extends Wiring {
  jobs: JobsService;
  repository: JobsRepository;
  /** Not started: main.ts starts it once the service answers. */
  runner: JobRunner;
}

/** The jobs service's parts, built once from the bus and its store: main.ts starts them. */
export async function wire({ bus, store, log, runner: options }: JobsDeps): Promise<Jobs> {
  const repository = await JobsRepository.open(store);
  const jobs = new JobsService(repository);
  const runner = new JobRunner({
    repo: repository,
    media: mediaWalkOverBus(bus),
    queue: jobQueueOverBus(bus),
    log,
    options,
  });
  return {
    jobs,
    repository,
    runner,
    description: 'background processing jobs',
    handlers: jobsHandlers(jobs),
    consume: () => consumeJobsEvents(bus, jobs, log),
  };
}
