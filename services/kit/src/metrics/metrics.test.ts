import { AppError } from '../errors';
import { Bus, rpcHandler } from '../bus';
import { echo, testWork } from '../bus/fixtures/test-contracts';
import { createLogger } from '../log';
import { startNatsServer } from '../testing/nats-server';
import type { NatsServerHandle } from '../testing/nats-server';
import { waitFor } from '../testing/wait';
import { startMetricsServer } from './index';
import type { MetricsServer } from './index';

const log = createLogger({ service: 'metrics-test', level: 'silent' });
let nats: NatsServerHandle;
let bus: Bus;
let server: MetricsServer;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await Bus.connect({ url: nats.url, name: 'metrics-test', log, rpcTimeoutMs: 2000 });
  await bus.ensureStreams();
  server = await startMetricsServer({ port: 0, host: '127.0.0.1', service: 'metrics-test' });
});

afterAll(async () => {
  await server.close();
  await bus.close();
  await nats.stop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one series, e.g. `trove_rpc_errors_total{...}`, or undefined when absent. */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

it('reports RPC latency histograms and errors per subject, labelled with the service', async () => {
  const contract = { ...echo, subject: 'trove.v1.test.metrics' };
  await bus.serve({
    name: 'metrics-echo',
    version: '1.0.0',
    handlers: [
      rpcHandler(contract, async ({ text }) => {
        if (text === 'missing') throw new AppError('NOT_FOUND', 'nothing here');
        return { text, replica: 'one' };
      }),
    ],
  });
  for (let i = 0; i < 3; i++) await bus.request(contract, { text: `hi ${i}` });
  await expect(bus.request(contract, { text: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

  const text = await scrape();
  const subject = contract.subject;
  expect(
    value(text, 'trove_rpc_server_duration_seconds_count', { subject, outcome: 'ok', service: 'metrics-test' }),
  ).toBe(3);
  expect(value(text, 'trove_rpc_server_duration_seconds_count', { subject, outcome: 'NOT_FOUND' })).toBe(1);
  expect(value(text, 'trove_rpc_server_duration_seconds_bucket', { subject, outcome: 'ok', le: '+Inf' })).toBe(3);
  expect(value(text, 'trove_rpc_client_duration_seconds_count', { subject, outcome: 'ok' })).toBe(3);
  expect(value(text, 'trove_rpc_errors_total', { subject, side: 'server', code: 'NOT_FOUND' })).toBe(1);
  expect(value(text, 'trove_rpc_errors_total', { subject, side: 'client', code: 'NOT_FOUND' })).toBe(1);
  expect(text).toMatch(/^trove_process_resident_memory_bytes\{service="metrics-test"\} \d+/m);
});

it('reports a work queue backlog, redeliveries and handling time per outcome', async () => {
  const work = testWork('metrics');
  let failOnce = true;
  const handled: number[] = [];
  const consumer = await bus.consume(work, { durable: 'metrics', backoffMs: [20] }, async ({ n }) => {
    if (n === 0 && failOnce) {
      failOnce = false;
      throw new Error('transient');
    }
    handled.push(n);
  });
  await bus.publish(work, { n: 0 }, { msgId: 'metrics-0' });
  await waitFor(() => handled.includes(0), { what: 'item 0 after its retry' });
  await consumer.stop();
  // With the consumer stopped, new items wait: the backlog shows them.
  for (let n = 1; n <= 3; n++) await bus.publish(work, { n }, { msgId: `metrics-${n}` });

  const text = await scrape();
  const subject = work.subject;
  expect(value(text, 'trove_message_handling_duration_seconds_count', { subject, outcome: 'retry' })).toBe(1);
  expect(value(text, 'trove_message_handling_duration_seconds_count', { subject, outcome: 'ack' })).toBe(1);
  expect(value(text, 'trove_message_redeliveries_total', { subject })).toBe(1);
  expect(value(text, 'trove_queue_pending_messages', { stream: work.stream, consumer: 'metrics' })).toBe(3);
  expect(value(text, 'trove_queue_unacked_messages', { stream: work.stream, consumer: 'metrics' })).toBe(0);
});

it('answers 404 elsewhere and a health probe on /healthz', async () => {
  expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${server.port}/nope`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(405);
});

it('refuses a port already in use with words that name the variable', async () => {
  await expect(startMetricsServer({ port: server.port, host: '127.0.0.1', service: 'metrics-test' })).rejects.toThrow(
    `the metrics port ${server.port} (TROVE_METRICS_PORT) is already in use`,
  );
});
