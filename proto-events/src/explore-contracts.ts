import { defineRpc } from './contract';
import type {
  ExploreIdRequestV1,
  ListExploreMediaItemsRequestV1,
  ListExploreRequestV1,
  MediaItemExploreRequestV1,
  MediaItemIdsV1,
  PlaceListV1,
  PlaceV1,
  ThingListV1,
  ThingV1,
} from './generated/types';
import exploreIdRequestV1 from './schemas/explore-id-request.v1.json';
import listExploreMediaItemsRequestV1 from './schemas/explore-items-request.v1.json';
import listExploreRequestV1 from './schemas/explore-list-request.v1.json';
import mediaItemIdsV1 from './schemas/explore-media-item-ids.v1.json';
import mediaItemExploreRequestV1 from './schemas/explore-media-item-request.v1.json';
import placeListV1 from './schemas/explore-place-list.v1.json';
import placeV1 from './schemas/explore-place.v1.json';
import thingListV1 from './schemas/explore-thing-list.v1.json';
import thingV1 from './schemas/explore-thing.v1.json';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref` (a list embeds its places or things).
registerSchemas([placeV1, thingV1]);

/**
 * The explore service: places and things of each user's library. It owns them and each item's
 * membership, fed by the workers' results and the media events; it answers media items by id only,
 * and its callers ask the media service for the items (`trove.v1.media.getMany`).
 */

// ---- explore: places -------------------------------------------------------------------------
export const listPlacesRpc = defineRpc<ListExploreRequestV1, PlaceListV1>({
  subject: 'trove.v1.explore.places.list',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One page of the caller's places that have an item neither trashed nor hidden: most items first, then by name.",
  request: listExploreRequestV1,
  response: placeListV1,
});

export const getPlaceRpc = defineRpc<ExploreIdRequestV1, PlaceV1>({
  subject: 'trove.v1.explore.places.get',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One of the caller's places with its count and cover id (also when none of its items is visible); not found otherwise.",
  request: exploreIdRequestV1,
  response: placeV1,
});

export const listPlaceMediaItemsRpc = defineRpc<ListExploreMediaItemsRequestV1, MediaItemIdsV1>({
  subject: 'trove.v1.explore.places.items',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Ids of one page of a place's items, newest first, trashed and hidden items left out; not found unless it is the caller's place.",
  request: listExploreMediaItemsRequestV1,
  response: mediaItemIdsV1,
});

export const listMediaItemPlacesRpc = defineRpc<MediaItemExploreRequestV1, PlaceListV1>({
  subject: 'trove.v1.explore.places.ofMediaItem',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "The place of one of the caller's items (none until processed, or without a position); mediaitem not found otherwise.",
  request: mediaItemExploreRequestV1,
  response: placeListV1,
});

// ---- explore: things -------------------------------------------------------------------------
export const listThingsRpc = defineRpc<ListExploreRequestV1, ThingListV1>({
  subject: 'trove.v1.explore.things.list',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One page of the caller's things that have an item neither trashed nor hidden: most items first, then by name.",
  request: listExploreRequestV1,
  response: thingListV1,
});

export const getThingRpc = defineRpc<ExploreIdRequestV1, ThingV1>({
  subject: 'trove.v1.explore.things.get',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One of the caller's things with its count and cover id (also when none of its items is visible); not found otherwise.",
  request: exploreIdRequestV1,
  response: thingV1,
});

export const listThingMediaItemsRpc = defineRpc<ListExploreMediaItemsRequestV1, MediaItemIdsV1>({
  subject: 'trove.v1.explore.things.items',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Ids of one page of a thing's items, newest first, trashed and hidden items left out; not found unless it is the caller's thing.",
  request: listExploreMediaItemsRequestV1,
  response: mediaItemIdsV1,
});

export const listMediaItemThingsRpc = defineRpc<MediaItemExploreRequestV1, ThingListV1>({
  subject: 'trove.v1.explore.things.ofMediaItem',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "The things recognised in one of the caller's items, by name (none until processed); mediaitem not found otherwise.",
  request: mediaItemExploreRequestV1,
  response: thingListV1,
});

export const exploreContracts = [
  listPlacesRpc,
  getPlaceRpc,
  listPlaceMediaItemsRpc,
  listMediaItemPlacesRpc,
  listThingsRpc,
  getThingRpc,
  listThingMediaItemsRpc,
  listMediaItemThingsRpc,
];
