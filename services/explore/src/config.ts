import { decimal, docStoreSpec, int } from '@trove/kit';
import { DEFAULT_GROUPING } from './people/grouping';
import { DEFAULT_SETTLE } from './people/settle';

/** The explore service's own variables (on top of the common ones): where its documents live, how faces group into people. */
export const exploreSpec = {
  ...docStoreSpec,
  /** Two faces show the same person when their cosine distance is at most this (0.30: measured on the seed photos). */
  peopleMatchDistance: decimal('TROVE_PEOPLE_MATCH_DISTANCE', {
    default: DEFAULT_GROUPING.maxDistance,
    min: 0,
    max: 2,
  }),
  /** Alike faces (the face itself included) a face needs to found a person (1: a single photo already yields people). */
  peopleMinFaces: int('TROVE_PEOPLE_MIN_FACES', { default: DEFAULT_GROUPING.minFaces, min: 1, max: 100 }),
  /** Faces the worker rated below this quality (0..1: small, blurry) never found a person; they may join one. */
  peopleMinQuality: decimal('TROVE_PEOPLE_MIN_QUALITY', { default: DEFAULT_GROUPING.minQuality, min: 0, max: 1 }),
  /** Quiet seconds after a user's last new face before their people are regrouped (0: only by a `faces` job). */
  peopleRegroupDelaySeconds: decimal('TROVE_PEOPLE_REGROUP_DELAY_SECONDS', {
    default: DEFAULT_SETTLE.delayMs / 1000,
    min: 0,
    max: 3600,
  }),
  /** Users with more faces are regrouped only by a `faces` job (a regroup compares every face with every other). */
  peopleRegroupMaxFaces: int('TROVE_PEOPLE_REGROUP_MAX_FACES', {
    default: DEFAULT_SETTLE.maxFaces,
    min: 0,
    max: 1_000_000,
  }),
  /**
   * Search items held in memory, all users together (each user's are read at their first search); past
   * it the least recently searched users' are dropped, and read again at their next search.
   */
  searchMaxItemsInMemory: int('TROVE_SEARCH_MAX_ITEMS_IN_MEMORY', {
    default: 2_000_000,
    min: 1000,
    max: 100_000_000,
  }),
};
