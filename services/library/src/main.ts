import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { AlbumsRepository } from './albums/repository';
import { Albums } from './albums/service';
import { librarySpec } from './config';
import { consumeLibraryEvents } from './events';
import { libraryHandlers } from './handlers';
import { mediaOverBus } from './ports/media';

/**
 * The library service: albums, their membership and shared albums. It composes media items through
 * the media service's RPC and follows their trash, restore and purge (and user deletion) through events.
 */
void runService({
  name: 'library',
  version: packageVersion(__dirname),
  configSpec: librarySpec,
  async start({ log, bus, docStore, serve }) {
    const albums = new Albums(await AlbumsRepository.open(await docStore()), mediaOverBus(bus));
    await consumeLibraryEvents(bus, albums, log);
    await serve('albums and shared albums', libraryHandlers(albums));
  },
});
