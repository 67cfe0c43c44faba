import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
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
 * Starts OpenTelemetry when something takes the spans (an OTLP endpoint, or a test's processors).
 * Must run before express/http are loaded, which is why every service's entrypoint imports
 * `@trove/kit/telemetry/register` (./register.ts) first. Then W3C trace context ties an HTTP request
 * to its NATS calls and their services, and log lines carry the trace and span ids.
 *
 * With nothing exported it does not start at all: patching http and express and following every
 * promise's context cost the gateway about 0.5 ms of CPU per upload (`make bench`) for spans nobody
 * reads. Log lines still correlate across services by the request id, which crosses NATS on its own
 * (bus/headers.ts). Never a network call without an endpoint.
 */
export function startTelemetry(opts: TelemetryOptions): void {
  if (sdk) return;
  const processors: SpanProcessor[] = [...(opts.spanProcessors ?? [])];
  if (opts.otlpEndpoint) {
    processors.push(
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${opts.otlpEndpoint.replace(/\/$/, '')}/v1/traces` })),
    );
  }
  if (processors.length === 0) return;
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  process.env.OTEL_TRACES_EXPORTER ??= 'none';
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.name': `trove-${opts.service}` }),
    spanProcessors: processors,
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    ],
  });
  sdk.start();
}

export async function stopTelemetry(): Promise<void> {
  const s = sdk;
  sdk = undefined;
  await s?.shutdown().catch(() => undefined);
}
