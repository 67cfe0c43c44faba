import type { WireDeps, Wiring } from '@trove/kit';
import { consumeEvents } from './events';
import { handlers } from './handlers';
import type { GroupingRules } from './people/grouping';
import { PeopleRepository } from './people/repository';
import { PeopleService } from './people/service';
import { DEFAULT_SETTLE, RegroupWhenSettled } from './people/settle';
import type { SettleRules } from './people/settle';
import { PlacesThingsRepository } from './places-things/repository';
import { PlacesThingsService } from './places-things/service';
import { mediaOverBus } from './ports/media';
import { SearchRepository } from './search/repository';
import type { SearchRepositoryOptions } from './search/repository';
import { SearchService } from './search/service';

/** The explore service's domains, as handlers.ts and events.ts reach them. */
export interface ExploreServices {
  placesThings: PlacesThingsService;
  people: PeopleService;
  search: SearchService;
}

export interface Explore extends Wiring {
  services: ExploreServices;
}

/**
 * Explore's parts, built once from the bus and its store: its domains over their repositories and the media
 * service; main.ts starts them, explore.bus.test.ts too.
 */
export async function wire({
  bus,
  store,
  log,
  grouping,
  settle = DEFAULT_SETTLE,
  search: searchOptions = {},
}: WireDeps & { grouping: GroupingRules; settle?: SettleRules; search?: SearchRepositoryOptions }): Promise<Explore> {
  const media = mediaOverBus(bus);
  const placesThings = new PlacesThingsService(await PlacesThingsRepository.open(store), media);
  const people = new PeopleService(await PeopleRepository.open(store), media, grouping);
  const search = new SearchService(await SearchRepository.open(store, searchOptions), media, people);
  // Names in items change when people are named, merged, regrouped or found in a new photo: search re-reads them.
  people.onNamesChanged((userId, mediaItemIds) => search.peopleChanged(userId, mediaItemIds));
  // People split by the incremental assignment merge once a user's new faces have settled.
  const regroups = new RegroupWhenSettled(people, settle, log);
  people.onFacesAdded((userId) => regroups.touch(userId));
  const services = { placesThings, people, search };
  return {
    services,
    description: 'places, things, people and search',
    handlers: handlers(services),
    consume: async () => [...(await consumeEvents(bus, services, log)), { stop: async () => regroups.stop() }],
  };
}
