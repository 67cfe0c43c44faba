import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { jobsSpec } from './config';
import { wire } from './wire';

/**
 * The jobs service: users' processing jobs over their libraries. Its RPCs create, list, pause,
 * resume and stop jobs; its runner (one per replica, a lease per job) walks a job's items and
 * queues their work for the workers, which report each item done.
 */
void runService({
  name: 'jobs',
  version: packageVersion(__dirname),
  configSpec: jobsSpec,
  async start({ config, log, bus, docStore, serveWiring, onShutdown }) {
    const options = { maxInFlight: config.maxInFlight, leaseMs: config.leaseSeconds * 1000, pollMs: config.pollMs };
    const jobs = await wire({ bus, store: await docStore(), log, runner: options });
    await serveWiring(jobs);
    const { runner } = jobs;
    runner.start();
    onShutdown(() => runner.stop());
    log.info(
      { runner: runner.owner, maxInFlight: config.maxInFlight, leaseSeconds: config.leaseSeconds },
      'job runner started',
    );
  },
});
