import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { exploreSpec } from './config';
import { DEFAULT_SETTLE } from './people/settle';
import { wire } from './wire';

/**
 * The explore service: places, things, people and search of each library. It files items from the workers'
 * results, follows their state through the media events (asking the media service for it), and
 * answers ids of media items, which its callers compose through the media service.
 */
void runService({
  name: 'explore',
  version: packageVersion(__dirname),
  configSpec: exploreSpec,
  async start({ config, log, bus, docStore, serveWiring }) {
    const grouping = {
      maxDistance: config.peopleMatchDistance,
      minFaces: config.peopleMinFaces,
      minQuality: config.peopleMinQuality,
    };
    const settle = {
      ...DEFAULT_SETTLE,
      delayMs: config.peopleRegroupDelaySeconds * 1000,
      maxFaces: config.peopleRegroupMaxFaces,
    };
    await serveWiring(
      await wire({
        bus,
        store: await docStore(),
        log,
        grouping,
        settle,
        search: {
          maxItemsInMemory: config.searchMaxItemsInMemory,
          // A first search after a start waits for the user's items while its request may: then "try again".
          maxWaitMs: Math.max(100, config.rpcTimeoutMs - 1000),
        },
      }),
    );
  },
});
