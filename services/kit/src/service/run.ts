import { loadConfigOrExit, redactUrl } from '../config';
import type { ConfigOf, Spec } from '../config';
import { commonSpec } from '../config/common';
import { Bus } from '../bus';
import { createLogger } from '../log';
import type { Logger } from '../log';
import { startMetricsServer } from '../metrics';
import { stopTelemetry } from '../telemetry';

export type CommonConfig = ConfigOf<typeof commonSpec>;

export interface ServiceContext<S extends Spec> {
  name: string;
  version: string;
  config: CommonConfig & ConfigOf<S>;
  log: Logger;
  bus: Bus;
  /** Registers cleanup run on SIGTERM/SIGINT, in reverse order, before the bus drains. */
  onShutdown(fn: () => Promise<void> | void): void;
}

export interface ServiceDefinition<S extends Spec> {
  name: string;
  version: string;
  /** Service-specific variables, validated together with the common ones. */
  configSpec: S;
  start(ctx: ServiceContext<S>): Promise<void>;
}

/** Printed once the service is serving: `make up` and the tests wait for it. */
export const READY_MESSAGE = 'service ready';

/**
 * The one way a service process starts: validated config, JSON logs, a NATS connection that
 * waits for the server, the JetStream streams, the service's own start, and a clean drain on
 * SIGTERM/SIGINT (in-flight requests and messages finish; unacked work is redelivered elsewhere).
 */
export async function runService<S extends Spec>(def: ServiceDefinition<S>): Promise<void> {
  const config = loadConfigOrExit(def.name, { ...commonSpec, ...def.configSpec }) as CommonConfig & ConfigOf<S>;
  const log = createLogger({ service: def.name, level: config.logLevel });
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    log.fatal({ err }, 'unhandled rejection');
    process.exit(1);
  });

  log.info({ version: def.version, nats: redactUrl(config.natsUrl) }, 'starting');
  // Until connected there is nothing to clean up: the default signal handling is right.
  const bus = await Bus.connect({ url: config.natsUrl, name: `${def.name}-${process.pid}`, log, rpcTimeoutMs: config.rpcTimeoutMs, auth: config.nats });

  const cleanups: Array<() => Promise<void> | void> = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    hardStop.unref();
    for (const fn of cleanups.reverse()) {
      await Promise.resolve()
        .then(fn)
        .catch((err) => log.error({ err }, 'cleanup failed'));
    }
    await bus.close();
    await stopTelemetry();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.metricsPort !== undefined) {
    const metrics = await startMetricsServer({ port: config.metricsPort, service: def.name });
    cleanups.push(() => metrics.close());
    log.info({ metrics: `http://127.0.0.1:${metrics.port}/metrics` }, 'metrics served');
  }
  await bus.ensureStreams();
  await def.start({ name: def.name, version: def.version, config, log, bus, onShutdown: (fn) => cleanups.push(fn) });
  log.info({ pid: process.pid }, READY_MESSAGE);
}
