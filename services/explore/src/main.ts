import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { exploreSpec } from './config';
import { consumeExploreEvents } from './events';
import { ExploreRepository } from './explore/repository';
import { Explore } from './explore/service';
import { exploreHandlers } from './handlers';
import { mediaOverBus } from './ports/media';

/**
 * The explore service: places and things of each library. It files items from the workers'
 * results, follows their state through the media events (asking the media service for it), and
 * answers ids of media items, which its callers compose through the media service.
 */
void runService({
  name: 'explore',
  version: packageVersion(__dirname),
  configSpec: exploreSpec,
  async start({ log, bus, docStore, serve }) {
    const explore = new Explore(await ExploreRepository.open(await docStore()), mediaOverBus(bus));
    await consumeExploreEvents(bus, explore, log);
    await serve('places and things', exploreHandlers(explore));
  },
});
