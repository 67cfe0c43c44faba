import { decimal, docStoreSpec, int } from '@trove/kit';
import { DEFAULT_GROUPING } from './people/grouping';

/** The explore service's own variables (on top of the common ones): where its documents live, how faces group into people. */
export const exploreSpec = {
  ...docStoreSpec,
  /** Two faces show the same person when their cosine distance is at most this (0.30: measured on the seed photos). */
  peopleMatchDistance: decimal('TROVE_PEOPLE_MATCH_DISTANCE', {
    default: DEFAULT_GROUPING.maxDistance,
    min: 0,
    max: 2,
  }),
  /** Alike faces it takes to start a person (1: a single photo already yields people). */
  peopleMinFaces: int('TROVE_PEOPLE_MIN_FACES', { default: DEFAULT_GROUPING.minFaces, min: 1, max: 100 }),
};
