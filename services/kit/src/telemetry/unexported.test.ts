import { PassThrough } from 'node:stream';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { Bus, rpcHandler } from '../bus';
import { echo } from '../bus/fixtures/test-contracts';
import { createLogger } from '../log';
import { startNatsServer } from '../testing/nats-server';
import type { NatsServerHandle } from '../testing/nats-server';
import { startTelemetry, stopTelemetry } from './index';

// Without an OTLP endpoint nothing takes the spans: they are not recorded, but their ids still
// propagate across NATS and reach the log lines (a jest test file is a process of its own here).
describe('telemetry with nothing exported', () => {
  let nats: NatsServerHandle;
  let server: Bus;
  let client: Bus;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    startTelemetry({ service: 'test' });
    nats = await startNatsServer();
    const out = new PassThrough();
    out.on('data', (d: Buffer) => d.toString().split('\n').filter(Boolean).forEach((l) => lines.push(JSON.parse(l) as Record<string, unknown>)));
    const log = createLogger({ service: 'test', destination: out });
    server = await Bus.connect({ url: nats.url, name: 'srv', log });
    client = await Bus.connect({ url: nats.url, name: 'cli', log });
    await server.serve({
      name: 'echo',
      version: '1.0.0',
      handlers: [
        rpcHandler(echo, async ({ text }) => {
          log.info({ text }, 'echoing');
          return { text, replica: 'a' };
        }),
      ],
    });
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    await nats.stop();
    await stopTelemetry();
  });

  it('records no span, yet the trace id reaches the service and its log lines', async () => {
    const root = trace.getTracer('test').startSpan('GET /v1/example', { kind: SpanKind.SERVER });
    expect(root.isRecording()).toBe(false);
    const { traceId } = root.spanContext();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));
    await context.with(trace.setSpan(context.active(), root), () => client.request(echo, { text: 'traced' }));
    root.end();
    const line = lines.find((l) => l.msg === 'echoing');
    expect(line).toBeDefined();
    expect(line!.traceId).toBe(traceId);
  });
});
