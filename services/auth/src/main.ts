import './telemetry';
import { packageVersion, runService } from '@trove/kit';

/** The auth service: users, passwords and sessions. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'auth',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'users, passwords and sessions', handlers: [] });
  },
});
