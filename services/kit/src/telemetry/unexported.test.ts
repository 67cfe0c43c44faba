import { PassThrough } from 'node:stream';
import { trace } from '@opentelemetry/api';
import type { Bus } from '../bus';
import { startEchoService } from '../bus/fixtures/echo-service';
import { echo } from '../bus/fixtures/test-contracts';
import { createLogger, runWithContext } from '../log';
import { startTelemetry, stopTelemetry } from './index';

// Without an OTLP endpoint nothing takes the spans, so OpenTelemetry does not start (no patched
// http, no span); log lines still tie together across services by the request id, which crosses
// NATS on its own (a jest test file is a process of its own here).
describe('telemetry with nothing exported', () => {
  let echoing: Awaited<ReturnType<typeof startEchoService>>;
  let client: Bus;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    startTelemetry({ service: 'test' });
    const out = new PassThrough();
    out.on('data', (d: Buffer) =>
      d
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((l) => lines.push(JSON.parse(l) as Record<string, unknown>)),
    );
    const log = createLogger({ service: 'test', destination: out });
    echoing = await startEchoService(log, (text) => log.info({ text }, 'echoing'));
    client = echoing.client;
  });

  afterAll(async () => {
    await echoing.close();
    await stopTelemetry();
  });

  it('makes no span, yet the request id reaches the service and its log lines', async () => {
    // The API's no-op tracer: a span without ids, nothing recorded.
    const span = trace.getTracer('test').startSpan('GET /v1/example');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('0'.repeat(32));
    span.end();
    await runWithContext({ requestId: 'req-unexported-1' }, () => client.request(echo, { text: 'correlated' }));
    const line = lines.find((l) => l.msg === 'echoing' && l.text === 'correlated');
    expect(line).toBeDefined();
    expect(line!.requestId).toBe('req-unexported-1');
    expect(line!.traceId).toBeUndefined();
  });
});
