import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { backfillHidden } from './albums/backfill';
import { librarySpec } from './config';
import { wire } from './wire';

/**
 * The library service: albums, their membership and shared albums. It composes media items through
 * the media service's RPC and follows their trash, restore and purge (and user deletion) through events.
 */
void runService({
  name: 'library',
  version: packageVersion(__dirname),
  configSpec: librarySpec,
  async start({ log, bus, docStore, serveWiring }) {
    const library = await wire({ bus, store: await docStore(), log });
    await serveWiring(library);
    backfillHidden(library.albums, log);
  },
});
