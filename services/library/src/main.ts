import '@trove/kit/telemetry/register';
import { openDocStoreFromConfig, packageVersion, runService } from '@trove/kit';
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
  async start({ config, log, bus, name, version, onShutdown }) {
    const store = await openDocStoreFromConfig('library', config);
    onShutdown(() => store.close());
    const albums = new Albums(await AlbumsRepository.open(store), mediaOverBus(bus));

    const consumers = await consumeLibraryEvents(bus, albums, log);
    const service = await bus.serve({ name, version, description: 'albums and shared albums', handlers: libraryHandlers(albums) });
    // Shutdown runs in reverse: stop taking requests and events before the store closes.
    onShutdown(async () => {
      await service.stop();
      await Promise.allSettled(consumers.map((c) => c.stop()));
    });
  },
});
