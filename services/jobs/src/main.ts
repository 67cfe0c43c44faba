import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { jobsSpec } from './config';
import { consumeJobsEvents } from './events';
import { jobsHandlers } from './handlers';
import { JobsRepository } from './jobs/repository';
import { JobRunner } from './jobs/runner';
import { Jobs } from './jobs/service';
import { mediaWalkOverBus } from './ports/media';
import { jobQueueOverBus } from './ports/queue';

/**
 * The jobs service: users' processing jobs over their libraries. Its RPCs create, list, pause,
 * resume and stop jobs; its runner (one per replica, a lease per job) walks a job's items and
 * queues their work for the workers, which report each item done.
 */
void runService({
  name: 'jobs',
  version: packageVersion(__dirname),
  configSpec: jobsSpec,
  async start({ config, log, bus, docStore, serve, onShutdown }) {
    const repo = await JobsRepository.open(await docStore());
    const jobs = new Jobs(repo);
    await consumeJobsEvents(bus, jobs, log);
    await serve('background processing jobs', jobsHandlers(jobs));
    const runner = new JobRunner({
      repo,
      media: mediaWalkOverBus(bus),
      queue: jobQueueOverBus(bus),
      log,
      options: { maxInFlight: config.maxInFlight, leaseMs: config.leaseSeconds * 1000, pollMs: config.pollMs },
    });
    runner.start();
    onShutdown(() => runner.stop());
    log.info(
      { runner: runner.owner, maxInFlight: config.maxInFlight, leaseSeconds: config.leaseSeconds },
      'job runner started',
    );
  },
});
