import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';

/** The jobs service: background processing jobs. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'jobs',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ serve }) {
    await serve('background processing jobs', []);
  },
});
