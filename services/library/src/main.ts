import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import type { Logger } from '@trove/kit';
import { AlbumsRepository } from './albums/repository';
import { Albums } from './albums/service';
import { librarySpec } from './config';
import { consumeLibraryEvents } from './events';
import { libraryHandlers } from './handlers';
import { mediaOverBus } from './ports/media';

/**
 * Memberships from before the mirrored hidden flag are left out of shared views until they have it:
 * filled in from the media service in the background, tried again every 10 s while that fails.
 */
function backfillHidden(albums: Albums, log: Logger): void {
  const run = () => {
    albums.backfillHidden().then(
      (filled) => {
        if (filled > 0) log.info({ filled }, 'hidden flag of album memberships filled in');
      },
      (err: unknown) => {
        log.warn({ err }, 'filling in the hidden flag of album memberships failed: trying again in 10 s');
        setTimeout(run, 10_000).unref();
      },
    );
  };
  run();
}

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
    backfillHidden(albums, log);
  },
});
