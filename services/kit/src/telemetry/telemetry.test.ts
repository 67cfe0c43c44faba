import { SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Bus } from '../bus';
import { startEchoService } from '../bus/fixtures/echo-service';
import { echo } from '../bus/fixtures/test-contracts';
import { createLogger } from '../log';
import { startTelemetry, stopTelemetry } from './index';

describe('telemetry', () => {
  const exporter = new InMemorySpanExporter();
  let echoing: Awaited<ReturnType<typeof startEchoService>>;
  let client: Bus;

  beforeAll(async () => {
    startTelemetry({ service: 'test', spanProcessors: [new SimpleSpanProcessor(exporter)] });
    echoing = await startEchoService(createLogger({ service: 'test', level: 'silent' }));
    client = echoing.client;
  });

  afterAll(async () => {
    await echoing.close();
    await stopTelemetry();
  });

  it('carries the trace from an incoming request across NATS into the service', async () => {
    const tracer = trace.getTracer('test');
    const root = tracer.startSpan('GET /v1/example', { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(context.active(), root), () => client.request(echo, { text: 'traced' }));
    root.end();
    const spans = exporter.getFinishedSpans();
    const rpcClient = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'rpc trove.v1.test.echo');
    const rpcServer = spans.find((s) => s.kind === SpanKind.SERVER && s.name === 'rpc trove.v1.test.echo');
    expect(rpcClient).toBeDefined();
    expect(rpcServer).toBeDefined();
    const traceId = root.spanContext().traceId;
    expect(rpcClient!.spanContext().traceId).toBe(traceId);
    expect(rpcServer!.spanContext().traceId).toBe(traceId);
    expect(rpcClient!.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(rpcServer!.parentSpanContext?.spanId).toBe(rpcClient!.spanContext().spanId);
  });
});
