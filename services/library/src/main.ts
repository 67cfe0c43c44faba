import './telemetry';
import { packageVersion, runService } from '@trove/kit';

/** The library service: albums and shared albums. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'library',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'albums and shared albums', handlers: [] });
  },
});
