import type { DocStore } from '@trove/kit';
import { docStorePerTest } from '@trove/kit/testing';
import { DEFAULT_GROUPING } from './people/grouping';
import { PeopleRepository } from './people/repository';
import { PeopleService } from './people/service';
import type { PeopleServiceOptions } from './people/service';
import { PlacesThingsRepository } from './places-things/repository';
import { PlacesThingsService } from './places-things/service';
import { FakeMedia } from './ports/media.fake';
import type { PeopleNames } from './search/people';
import { SearchRepository } from './search/repository';
import { SearchService } from './search/service';

/** Explore's domains under test, built again before each test over a fresh embedded store and a fake media service. */
export interface TestServices {
  readonly store: DocStore;
  readonly media: FakeMedia;
  readonly placesThingsRepo: PlacesThingsRepository;
  readonly placesThings: PlacesThingsService;
  readonly people: PeopleService;
  readonly search: SearchService;
  /** Builds the domains again over the same store and media service: the process restarted. */
  restart(): Promise<void>;
}

/**
 * The one way a suite builds explore's services under test (call it in a `describe`; read its
 * fields inside a test or a hook): each domain over its real repository on the embedded store,
 * the media service faked. Search asks `names` for the people in an item when given (a fake),
 * else the people service, as the process wires it. `people`: the people service's options (page size,
 * regroup slices).
 */
export function newTestServices(
  opts: { searchInMemory?: boolean; names?: PeopleNames; people?: PeopleServiceOptions } = {},
): TestServices {
  const db = docStorePerTest('explore');
  let built: Omit<TestServices, 'store' | 'restart'> | undefined;
  let media: FakeMedia | undefined;
  const build = async () => {
    media ??= new FakeMedia();
    const placesThingsRepo = await PlacesThingsRepository.open(db.store);
    const people = new PeopleService(await PeopleRepository.open(db.store), media, DEFAULT_GROUPING, opts.people);
    const searchRepo = await SearchRepository.open(db.store, { inMemory: opts.searchInMemory });
    const search = new SearchService(searchRepo, media, opts.names ?? people);
    // As main.ts wires them: search re-reads the names in items whose people changed.
    if (!opts.names) people.onNamesChanged((userId, ids) => search.peopleChanged(userId, ids));
    built = {
      media,
      placesThingsRepo,
      placesThings: new PlacesThingsService(placesThingsRepo, media),
      people,
      search,
    };
  };
  beforeEach(async () => {
    media = undefined;
    await build();
  });
  const get = () => {
    if (!built) throw new Error('explore services are built before each test: read them inside a test or a hook');
    return built;
  };
  return {
    get store() {
      return db.store;
    },
    get media() {
      return get().media;
    },
    get placesThingsRepo() {
      return get().placesThingsRepo;
    },
    get placesThings() {
      return get().placesThings;
    },
    get people() {
      return get().people;
    },
    get search() {
      return get().search;
    },
    restart: build,
  };
}
