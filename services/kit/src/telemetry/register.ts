/**
 * A service entrypoint's first import: `import '@trove/kit/telemetry/register';`. OpenTelemetry
 * patches http, express and friends only when they load after it, so it must start before the rest
 * of the entrypoint's imports. The service is named after the entrypoint's package
 * (`@trove/gateway` → `trove-gateway`); TROVE_OTLP_ENDPOINT turns export on.
 */
import { startTelemetry } from './index';
import { entrypointServiceName } from './service-name';

startTelemetry({ service: entrypointServiceName(), otlpEndpoint: process.env.TROVE_OTLP_ENDPOINT || undefined });
