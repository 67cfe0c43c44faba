import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { exploreSpec } from './config';
import { consumeExploreEvents } from './events';
import { PlacesThingsRepository } from './places-things/repository';
import { PlacesThingsService } from './places-things/service';
import { exploreHandlers } from './handlers';
import { PeopleRepository } from './people/repository';
import { PeopleService } from './people/service';
import { mediaOverBus } from './ports/media';
import { consumeSearchEvents } from './search/events';
import { searchHandlers } from './search/handlers';
import { SearchRepository } from './search/repository';
import { SearchService } from './search/service';

/**
 * The explore service: places, things, people and search of each library. It files items from the workers'
 * results, follows their state through the media events (asking the media service for it), and
 * answers ids of media items, which its callers compose through the media service.
 */
void runService({
  name: 'explore',
  version: packageVersion(__dirname),
  configSpec: exploreSpec,
  async start({ config, log, bus, docStore, serve }) {
    const store = await docStore();
    const media = mediaOverBus(bus);
    const explore = new PlacesThingsService(await PlacesThingsRepository.open(store), media);
    const people = new PeopleService(await PeopleRepository.open(store), media, {
      maxDistance: config.peopleMatchDistance,
      minFaces: config.peopleMinFaces,
    });
    const search = new SearchService(await SearchRepository.open(store), media, people);
    // Names in items change when people are named, merged, regrouped or found in a new photo: search re-reads them.
    people.onNamesChanged((userId, mediaItemIds) => search.peopleChanged(userId, mediaItemIds));
    await consumeExploreEvents(bus, explore, people, log);
    await consumeSearchEvents(bus, search, log);
    await serve('places, things, people and search', [...exploreHandlers(explore, people), ...searchHandlers(search)]);
  },
});
