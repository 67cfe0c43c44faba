import { defineRpc } from './contract';
import type {
  ContentLocationV1,
  EmptyV1,
  ExploreIdRequestV1,
  FaceListV1,
  ListExploreMediaItemsRequestV1,
  ListExploreRequestV1,
  ListPeopleRequestV1,
  LocateFaceRequestV1,
  MediaItemExploreRequestV1,
  MediaItemIdsV1,
  MergePeopleRequestV1,
  PeopleRegroupedV1,
  PersonFaceRequestV1,
  PersonListV1,
  PersonV1,
  PlaceListV1,
  PlaceV1,
  RegroupPeopleRequestV1,
  SearchMediaItemsRequestV1,
  ThingListV1,
  ThingV1,
  UpdatePersonRequestV1,
} from './generated/types';
import emptyV1 from './schemas/empty.v1.json';
import locateFaceRequestV1 from './schemas/explore-face-locate-request.v1.json';
import faceListV1 from './schemas/explore-face-list.v1.json';
import faceV1 from './schemas/explore-face.v1.json';
import exploreIdRequestV1 from './schemas/explore-id-request.v1.json';
import listExploreMediaItemsRequestV1 from './schemas/explore-items-request.v1.json';
import listExploreRequestV1 from './schemas/explore-list-request.v1.json';
import mediaItemIdsV1 from './schemas/explore-media-item-ids.v1.json';
import mediaItemExploreRequestV1 from './schemas/explore-media-item-request.v1.json';
import listPeopleRequestV1 from './schemas/explore-people-list-request.v1.json';
import mergePeopleRequestV1 from './schemas/explore-people-merge-request.v1.json';
import regroupPeopleRequestV1 from './schemas/explore-people-regroup-request.v1.json';
import peopleRegroupedV1 from './schemas/explore-people-regrouped.v1.json';
import personListV1 from './schemas/explore-person-list.v1.json';
import personFaceRequestV1 from './schemas/explore-person-face-request.v1.json';
import updatePersonRequestV1 from './schemas/explore-person-update-request.v1.json';
import personV1 from './schemas/explore-person.v1.json';
import placeListV1 from './schemas/explore-place-list.v1.json';
import placeV1 from './schemas/explore-place.v1.json';
import searchMediaItemsRequestV1 from './schemas/explore-search-request.v1.json';
import thingListV1 from './schemas/explore-thing-list.v1.json';
import thingV1 from './schemas/explore-thing.v1.json';
import contentLocationV1 from './schemas/media-content-location.v1.json';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref` (a list embeds its places, things or people; a person its cover face).
registerSchemas([placeV1, thingV1, faceV1, personV1]);

/**
 * Every contract the explore service answers: places and things, search and people of each user's
 * library. It owns them and each item's membership, fed by the workers' results and the media
 * events; it answers media items by id only, and its callers ask the media service for the items
 * (`trove.v1.media.getMany`).
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

// ---- explore: search ------------------------------------------------------------------------
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

// ---- explore: people ------------------------------------------------------------------------
/**
 * The explore service's people: the faces the workers found, grouped by likeness into people the
 * user names, hides and merges. Like places and things, it answers media items by id only.
 */
export const listPeopleRpc = defineRpc<ListPeopleRequestV1, PersonListV1>({
  subject: 'trove.v1.explore.people.list',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One page of the caller's people that have an item neither trashed nor hidden: most items first, then by name; hidden people only with hidden=true.",
  request: listPeopleRequestV1,
  response: personListV1,
});

export const getPersonRpc = defineRpc<ExploreIdRequestV1, PersonV1>({
  subject: 'trove.v1.explore.people.get',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One of the caller's people with its count and cover (also when hidden or none of its items is visible); not found otherwise.",
  request: exploreIdRequestV1,
  response: personV1,
});

export const listPersonMediaItemsRpc = defineRpc<ListExploreMediaItemsRequestV1, MediaItemIdsV1>({
  subject: 'trove.v1.explore.people.items',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Ids of one page of a person's items, newest first, trashed and hidden items left out; not found unless it is the caller's person.",
  request: listExploreMediaItemsRequestV1,
  response: mediaItemIdsV1,
});

export const listMediaItemPeopleRpc = defineRpc<MediaItemExploreRequestV1, PersonListV1>({
  subject: 'trove.v1.explore.people.ofMediaItem',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "The people whose faces are in one of the caller's items, by name (none until processed); mediaitem not found otherwise.",
  request: mediaItemExploreRequestV1,
  response: personListV1,
});

export const updatePersonRpc = defineRpc<UpdatePersonRequestV1, EmptyV1>({
  subject: 'trove.v1.explore.people.update',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Names, hides or shows one of the caller's people, or picks its cover among its photos (bad request otherwise); not found unless it is the caller's.",
  request: updatePersonRequestV1,
  response: emptyV1,
});

export const mergePeopleRpc = defineRpc<MergePeopleRequestV1, EmptyV1>({
  subject: 'trove.v1.explore.people.merge',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Moves the faces of the listed people to one of them and removes the others, keeping a name; not found unless every one is the caller's.",
  request: mergePeopleRequestV1,
  response: emptyV1,
});

export const listPersonFacesRpc = defineRpc<ListExploreMediaItemsRequestV1, FaceListV1>({
  subject: 'trove.v1.explore.people.faces',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "One page of a person's faces, newest photo first (every face, also in hidden or trashed items); not found unless it is the caller's person.",
  request: listExploreMediaItemsRequestV1,
  response: faceListV1,
});

export const assignFaceRpc = defineRpc<PersonFaceRequestV1, EmptyV1>({
  subject: 'trove.v1.explore.people.assignFace',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Gives one of the caller's faces to one of the caller's people for good (grouping never moves it again); not found unless both are the caller's.",
  request: personFaceRequestV1,
  response: emptyV1,
});

export const removePersonFaceRpc = defineRpc<PersonFaceRequestV1, EmptyV1>({
  subject: 'trove.v1.explore.people.removeFace',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Not this person: the face leaves the person and grouping never gives it to them again; not found unless the person is the caller's and has the face.",
  request: personFaceRequestV1,
  response: emptyV1,
});

export const regroupPeopleRpc = defineRpc<RegroupPeopleRequestV1, PeopleRegroupedV1>({
  subject: 'trove.v1.explore.people.regroup',
  service: 'explore',
  callers: ['jobs'],
  summary:
    "Groups all of one user's faces into people again from scratch; each new group keeps the id, name and choices of the old person holding most of its faces.",
  request: regroupPeopleRequestV1,
  response: peopleRegroupedV1,
});

export const locateFaceRpc = defineRpc<LocateFaceRequestV1, ContentLocationV1>({
  subject: 'trove.v1.explore.faces.locate',
  service: 'explore',
  callers: ['gateway'],
  summary:
    "Where the square WebP thumbnail of a face is (the caller's face, or any face whose signed URL the gateway verified); not found otherwise.",
  request: locateFaceRequestV1,
  response: contentLocationV1,
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
  searchMediaItemsRpc,
  listPeopleRpc,
  getPersonRpc,
  listPersonMediaItemsRpc,
  listMediaItemPeopleRpc,
  updatePersonRpc,
  mergePeopleRpc,
  listPersonFacesRpc,
  assignFaceRpc,
  removePersonFaceRpc,
  regroupPeopleRpc,
  locateFaceRpc,
];
