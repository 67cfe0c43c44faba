import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TelemetryOptions {
  service: string;
  /** OTLP/HTTP traces endpoint base, e.g. http://otel-collector:4318. Export is off when absent. */
  otlpEndpoint?: string;
  /** Extra processors (tests use an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

let sdk: NodeSDK | undefined;

/**
 * Keeps the SDK's tracer provider registered when nothing is exported (the SDK registers one only
 * when it has a processor), so trace ids still exist and propagate for log correlation.
 */
class KeepContextProcessor implements SpanProcessor {
  onStart(): void {}
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Starts OpenTelemetry. Must run before express/http are loaded, which is why every service's
 * entrypoint imports `@trove/kit/telemetry/register` (./register.ts) first. Context propagation
 * (W3C traceparent) is always on so trace ids tie log lines together across HTTP → NATS → service;
 * spans leave the process only when an OTLP endpoint is configured — never a network call otherwise.
 */
export function startTelemetry(opts: TelemetryOptions): void {
  if (sdk) return;
  // The SDK would otherwise pick exporters from OTEL_* defaults and try to reach localhost:4318.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_TRACES_EXPORTER ??= 'none';
  const processors: SpanProcessor[] = [new KeepContextProcessor(), ...(opts.spanProcessors ?? [])];
  if (opts.otlpEndpoint) {
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: `${opts.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })));
  }
  const exported = Boolean(opts.otlpEndpoint) || (opts.spanProcessors?.length ?? 0) > 0;
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': `trove-${opts.service}` }),
    spanProcessors: processors,
    // Nothing takes the spans: they are not recorded (no attributes, events or timings gathered on
    // every request and RPC), yet each still has its trace and span ids, which propagate and reach
    // the logs. A caller that records (a sampled traceparent) is still followed.
    ...(exported ? {} : { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) }),
    // No span per express middleware (request id, logs, helmet, cors, authentication…): a span and a
    // context switch each on every request, several per upload, and they say nothing the request's
    // own span and its route handler's span do not.
    instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] })],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  const s = sdk;
  sdk = undefined;
  await s?.shutdown().catch(() => undefined);
}
