import '@trove/kit/telemetry/register';
import { openDocStoreFromConfig, packageVersion, runService } from '@trove/kit';
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
  async start({ config, log, bus, name, version, onShutdown }) {
    const store = await openDocStoreFromConfig('explore', config);
    onShutdown(() => store.close());
    const explore = new Explore(await ExploreRepository.open(store), mediaOverBus(bus));

    const consumers = await consumeExploreEvents(bus, explore, log);
    const service = await bus.serve({ name, version, description: 'places and things', handlers: exploreHandlers(explore) });
    // Shutdown runs in reverse: stop taking requests and events before the store closes.
    onShutdown(async () => {
      await service.stop();
      await Promise.allSettled(consumers.map((c) => c.stop()));
    });
  },
});
