// Imported first by main.ts: OpenTelemetry must patch http and friends before they load.
import { startTelemetry } from '@trove/kit/telemetry';

startTelemetry({ service: 'explore', otlpEndpoint: process.env.TROVE_OTLP_ENDPOINT || undefined });
