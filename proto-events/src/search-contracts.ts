import { defineRpc } from './contract';
import type { MediaItemIdsV1, SearchMediaItemsRequestV1 } from './generated/types';
import searchMediaItemsRequestV1 from './schemas/explore-search-request.v1.json';
import mediaItemIdsV1 from './schemas/explore-media-item-ids.v1.json';

/**
 * Search: a module of the explore service, which keeps a word index of each user's items from the
 * events it follows. It answers ids; the caller asks the media service for the items.
 */
export const searchMediaItemsRpc = defineRpc<SearchMediaItemsRequestV1, MediaItemIdsV1>({
  subject: 'trove.v1.explore.search',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Ids of one page of the caller's items matching every word of `q` (whole word, or a word's beginning of 3 letters or more) in filename, description, camera, date taken, place, things, people or text in the picture: more matched fields and whole words first, then newest; trashed and hidden items left out; bad request when `q` has no word.",
  request: searchMediaItemsRequestV1,
  response: mediaItemIdsV1,
});

export const searchContracts = [searchMediaItemsRpc];
