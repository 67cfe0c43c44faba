import type { WireDeps, Wiring } from '@trove/kit';
import { AlbumsRepository } from './albums/repository';
import { AlbumsService } from './albums/service';
import { consumeLibraryEvents } from './events';
import { libraryHandlers } from './handlers';
import { mediaOverBus } from './ports/media';

export interface Library extends Wiring {
  albums: AlbumsService;
  repository: AlbumsRepository;
}

/** The library's parts, built once from the bus and its store: main.ts starts them, the bus test too. */
export async function wire({ bus, store, log }: WireDeps): Promise<Library> {
  const repository = await AlbumsRepository.open(store);
  const albums = new AlbumsService(repository, mediaOverBus(bus));
  return {
    albums,
    repository,
    description: 'albums and shared albums',
    handlers: libraryHandlers(albums),
    consume: () => consumeLibraryEvents(bus, albums, log),
  };
}
