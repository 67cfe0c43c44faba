import { streamDutyOf } from '@trove/proto-events';
import { ConfigError, loadConfigOrExit, redactUrl } from '../config';
import type { ConfigOf, Spec } from '../config';
import { commonSpec } from '../config/common';
import { Bus } from '../bus';
import type { AnyRpcHandler } from '../bus';
import type { BlobStore } from '../blobstore';
import type { DocStore } from '../docstore';
import type { Wiring } from './wiring';
import { openBlobStoreFromConfig, openDocStoreFromConfig } from './stores';
import type { BlobStoreConfig, DocStoreConfig } from './stores';
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
  /**
   * Registers cleanup run on SIGTERM/SIGINT, in reverse order. Requests and messages have stopped
   * by then (the bus stops serving first); the bus drains after the last cleanup.
   */
  onShutdown(fn: () => Promise<void> | void): void;
  /** The service's own document store (TROVE_MONGODB_URL, else SQLite or NeDB under the data dir), closed at shutdown. */
  docStore(): Promise<DocStore>;
  /** The blob store (TROVE_S3_* or files under the data dir), closed at shutdown. */
  blobStore(): Promise<BlobStore>;
  /** Answers `handlers` as this service (queue group = its name); stopped first at shutdown. */
  serve(description: string, handlers: AnyRpcHandler[]): Promise<void>;
  /** Starts what the service's `wire()` built: subscribes its consumers, then answers its RPCs (as `serve`). */
  serveWiring(wiring: Wiring): Promise<void>;
}

export interface ServiceDefinition<S extends Spec> {
  name: string;
  version: string;
  /** Service-specific variables, validated together with the common ones. */
  configSpec: S;
  start(ctx: ServiceContext<S>): Promise<void>;
}

/** Logged (info) once the service is serving: the tests that run services at info level wait for it. */
export const READY_MESSAGE = 'service ready';

/**
 * Sent to the parent over the IPC channel, when there is one, once the service is serving: how
 * `make up` knows, whatever TROVE_LOG_LEVEL silences. Node's `{ stdio: [..., 'ipc'] }` gives the channel.
 */
export const READY_IPC_MESSAGE = { trove: 'ready' } as const;

/**
 * Tells the parent process this one is ready, over the IPC channel if it has one (else nothing).
 * A parent gone meanwhile is not an error: the callback takes the failure instead of the process.
 */
export function announceReady(): void {
  if (process.send && process.connected) process.send(READY_IPC_MESSAGE, undefined, {}, () => undefined);
}

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
  const bus = await Bus.connect({
    url: config.natsUrl,
    name: `${def.name}-${process.pid}`,
    service: def.name,
    log,
    rpcTimeoutMs: config.rpcTimeoutMs,
    auth: config.nats,
  });

  const cleanups: Array<() => Promise<void> | void> = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Stop taking requests and messages before anything they use (stores) is closed.
    await bus.stopServing().catch((err) => log.error({ err }, 'stopping the bus failed'));
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
  // The worker's and the gateway's NATS users may not change streams: they wait for the others to make them.
  const streamDuty = streamDutyOf(def.name);
  if (streamDuty === 'manage') await bus.ensureStreams();
  else if (streamDuty === 'wait') await bus.waitForStreams();
  try {
    const onShutdown = (fn: () => Promise<void> | void) => void cleanups.push(fn);
    const closedAtShutdown = async <T extends { close(): Promise<void> }>(open: Promise<T>): Promise<T> => {
      const store = await open;
      onShutdown(() => store.close());
      return store;
    };
    const serve = async (description: string, handlers: AnyRpcHandler[]) => {
      await bus.serve({ name: def.name, version: def.version, description, handlers });
    };
    await def.start({
      name: def.name,
      version: def.version,
      config,
      log,
      bus,
      onShutdown,
      docStore: () =>
        closedAtShutdown(
          openDocStoreFromConfig(def.name, config as unknown as DocStoreConfig, (imported) =>
            log.info(imported, 'NeDB documents imported into SQLite'),
          ),
        ),
      blobStore: () => closedAtShutdown(openBlobStoreFromConfig(config as unknown as BlobStoreConfig)),
      serve,
      serveWiring: async (wiring) => {
        await wiring.consume();
        await serve(wiring.description, wiring.handlers);
      },
    });
  } catch (err) {
    // Refused at start for its configuration (e.g. a secret file too short): like a bad variable, exit 78, never a restart loop.
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${def.name}: ${err.message}\n`);
    process.exit(78);
  }
  log.info({ pid: process.pid }, READY_MESSAGE);
  announceReady();
}
