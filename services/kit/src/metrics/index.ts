/**
 * Prometheus metrics of one process: one registry, the instruments every service shares (RPC,
 * messages, HTTP), and a tiny HTTP server answering `GET /metrics` on its own port
 * (`TROVE_METRICS_PORT`), so scraping never competes with the service's own traffic.
 * Every name starts with `trove_`; the `service` label tells processes apart.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'trove_' });

/** Latency buckets in seconds, from a cached lookup (1 ms) to a slow upload step (30 s). */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Work that runs long: decoding, detection, video transcoding (up to 10 min). */
const WORK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets = LATENCY_BUCKETS,
): Histogram<L> {
  return new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
}

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

export const rpcServerDuration = histogram(
  'trove_rpc_server_duration_seconds',
  'Time to answer a NATS request, by subject and outcome (ok or the error code).',
  ['subject', 'outcome'],
);
export const rpcClientDuration = histogram(
  'trove_rpc_client_duration_seconds',
  'Time a NATS request waited for its answer, by subject and outcome (ok or the error code).',
  ['subject', 'outcome'],
);
export const rpcErrors = counter(
  'trove_rpc_errors_total',
  'NATS requests that ended in an error, by subject, side (server or client) and error code.',
  ['subject', 'side', 'code'],
);
export const messageDuration = histogram(
  'trove_message_handling_duration_seconds',
  'Time to handle a JetStream message, by subject and outcome (ack, retry, dead_letter).',
  ['subject', 'outcome'],
  WORK_BUCKETS,
);
export const messageRedeliveries = counter(
  'trove_message_redeliveries_total',
  'JetStream messages received again after a failure or a lost consumer, by subject.',
  ['subject'],
);
export const httpRequestDuration = histogram(
  'trove_http_request_duration_seconds',
  'Time to answer an HTTP request, by method, route template and status code.',
  ['method', 'route', 'status'],
);
export const componentDuration = histogram(
  'trove_worker_component_duration_seconds',
  'Time a worker component took for one item, by component and outcome (ok or the error kind).',
  ['component', 'outcome'],
  WORK_BUCKETS,
);

/** Seconds since `start` (a `process.hrtime.bigint()` reading). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * A gauge whose values are read when Prometheus scrapes (queue depth, items by status). The
 * reader returns one value per label set; a reader that fails leaves the gauge empty for that
 * scrape rather than failing the whole answer.
 */
export function observedGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Array<{ labels: Record<L, string>; value: number }>>,
): Gauge<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) registry.removeSingleMetric(name);
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      const values = await read().catch(() => []);
      for (const v of values) this.set(v.labels, v.value);
    },
  });
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the registry as Prometheus text on `GET /metrics` (and `GET /healthz` → 200 for a probe).
 * Port 0 picks a free port (tests). `service` becomes a label of every series.
 */
export async function startMetricsServer(opts: {
  port: number;
  host?: string;
  service: string;
}): Promise<MetricsServer> {
  registry.setDefaultLabels({ service: opts.service });
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${err.message}`),
      );
    } else if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  // Scrapes are small and quick: nothing may hold a socket for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`the metrics port ${opts.port} (TROVE_METRICS_PORT) is already in use`, { cause: err })
          : err,
      ),
    );
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
