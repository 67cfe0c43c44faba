import { docStoreSpec, int } from '@trove/kit';
import type { Var } from '@trove/kit';
import { DEFAULT_GROUPING } from './people/grouping';

/** A cosine distance: a number from 0 to 2. */
function distance(name: string, fallback: number): Var<number> {
  return {
    name,
    read(env) {
      const raw = env[name]?.trim();
      if (!raw) return fallback;
      const value = Number(raw);
      if (!/^\d*\.?\d+$/.test(raw) || value > 2) throw new Error(`${name} must be a cosine distance from 0 to 2, got "${raw}"`);
      return value;
    },
  };
}

/** The explore service's own variables (on top of the common ones): where its documents live, how faces group into people. */
export const exploreSpec = {
  ...docStoreSpec,
  /** Two faces show the same person when their cosine distance is at most this (0.30: measured on the seed photos). */
  peopleMatchDistance: distance('TROVE_PEOPLE_MATCH_DISTANCE', DEFAULT_GROUPING.maxDistance),
  /** Alike faces it takes to start a person (1: a single photo already yields people). */
  peopleMinFaces: int('TROVE_PEOPLE_MIN_FACES', { default: DEFAULT_GROUPING.minFaces, min: 1, max: 100 }),
};
