import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';

/** The explore service: places, things and people. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'explore',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'places, things and people', handlers: [] });
  },
});
