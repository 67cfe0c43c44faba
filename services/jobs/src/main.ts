import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';

/** The jobs service: background processing jobs. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'jobs',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'background processing jobs', handlers: [] });
  },
});
