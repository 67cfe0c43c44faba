import { defineRpc } from './contract';
import type {
  ContentLocationV1,
  EmptyV1,
  ExploreIdRequestV1,
  ListExploreMediaItemsRequestV1,
  ListPeopleRequestV1,
  LocateFaceRequestV1,
  MediaItemExploreRequestV1,
  MediaItemIdsV1,
  MergePeopleRequestV1,
  PeopleRegroupedV1,
  PersonListV1,
  PersonV1,
  RegroupPeopleRequestV1,
  UpdatePersonRequestV1,
} from './generated/types';
import emptyV1 from './schemas/empty.v1.json';
import exploreIdRequestV1 from './schemas/explore-id-request.v1.json';
import locateFaceRequestV1 from './schemas/explore-face-locate-request.v1.json';
import faceV1 from './schemas/explore-face.v1.json';
import listExploreMediaItemsRequestV1 from './schemas/explore-items-request.v1.json';
import mediaItemIdsV1 from './schemas/explore-media-item-ids.v1.json';
import mediaItemExploreRequestV1 from './schemas/explore-media-item-request.v1.json';
import listPeopleRequestV1 from './schemas/explore-people-list-request.v1.json';
import mergePeopleRequestV1 from './schemas/explore-people-merge-request.v1.json';
import regroupPeopleRequestV1 from './schemas/explore-people-regroup-request.v1.json';
import peopleRegroupedV1 from './schemas/explore-people-regrouped.v1.json';
import personListV1 from './schemas/explore-person-list.v1.json';
import updatePersonRequestV1 from './schemas/explore-person-update-request.v1.json';
import personV1 from './schemas/explore-person.v1.json';
import contentLocationV1 from './schemas/media-content-location.v1.json';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref` (a person embeds its cover face, a list its people).
registerSchemas([faceV1, personV1]);

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

export const peopleContracts = [
  listPeopleRpc,
  getPersonRpc,
  listPersonMediaItemsRpc,
  listMediaItemPeopleRpc,
  updatePersonRpc,
  mergePeopleRpc,
  regroupPeopleRpc,
  locateFaceRpc,
];
