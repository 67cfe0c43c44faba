import { docStoreSpec } from '@trove/kit';

/** The explore service's own variables (on top of the common ones): only where its documents live. */
export const exploreSpec = {
  ...docStoreSpec,
};
