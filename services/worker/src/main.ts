import './telemetry';
import { packageVersion, runService } from '@trove/kit';

/** The worker service: processing of uploaded media. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'worker',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'processing of uploaded media', handlers: [] });
  },
});
