import './telemetry';
import { packageVersion, runService } from '@trove/kit';

/** The media service: media items, their flags and content. Its calls arrive in their own issues; today it registers with the NATS service API so it is discoverable and health-checked. */
void runService({
  name: 'media',
  version: packageVersion(__dirname),
  configSpec: {},
  async start({ bus, name, version }) {
    await bus.serve({ name, version, description: 'media items, their flags and content', handlers: [] });
  },
});
