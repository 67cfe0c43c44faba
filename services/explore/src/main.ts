import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import type { AnyRpcHandler, Bus, DocStore, Logger } from '@trove/kit';
import { exploreSpec } from './config';
import { consumeEvents } from './events';
import { handlers } from './handlers';
import type { GroupingRules } from './people/grouping';
import { PeopleRepository } from './people/repository';
import { PeopleService } from './people/service';
import { PlacesThingsRepository } from './places-things/repository';
import { PlacesThingsService } from './places-things/service';
import { mediaOverBus } from './ports/media';
import { SearchRepository } from './search/repository';
import { SearchService } from './search/service';

/** The explore service's domains, as handlers.ts and events.ts reach them. */
export interface ExploreServices {
  placesThings: PlacesThingsService;
  people: PeopleService;
  search: SearchService;
}

/**
 * Explore wired on a bus and a store: its domains built over their repositories and the media
 * service, its event consumers started; answers its RPC handlers for the caller to serve. The
 * process (below) and explore.bus.test.ts both run it.
 */
export async function wire({
  bus,
  store,
  log,
  grouping,
}: {
  bus: Bus;
  store: DocStore;
  log: Logger;
  grouping: GroupingRules;
}): Promise<AnyRpcHandler[]> {
  const media = mediaOverBus(bus);
  const placesThings = new PlacesThingsService(await PlacesThingsRepository.open(store), media);
  const people = new PeopleService(await PeopleRepository.open(store), media, grouping);
  const search = new SearchService(await SearchRepository.open(store), media, people);
  // Names in items change when people are named, merged, regrouped or found in a new photo: search re-reads them.
  people.onNamesChanged((userId, mediaItemIds) => search.peopleChanged(userId, mediaItemIds));
  const services = { placesThings, people, search };
  await consumeEvents(bus, services, log);
  return handlers(services);
}

/**
 * The explore service: places, things, people and search of each library. It files items from the workers'
 * results, follows their state through the media events (asking the media service for it), and
 * answers ids of media items, which its callers compose through the media service.
 */
if (require.main === module)
  void runService({
    name: 'explore',
    version: packageVersion(__dirname),
    configSpec: exploreSpec,
    async start({ config, log, bus, docStore, serve }) {
      const grouping = { maxDistance: config.peopleMatchDistance, minFaces: config.peopleMinFaces };
      await serve('places, things, people and search', await wire({ bus, store: await docStore(), log, grouping }));
    },
  });
