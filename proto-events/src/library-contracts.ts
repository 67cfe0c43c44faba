import { defineRpc } from './contract';
import type {
  AddAlbumMemberRequestV1,
  AlbumIdRequestV1,
  AlbumMemberListV1,
  AlbumMemberV1,
  CheckMemberContentRequestV1,
  RemoveAlbumMemberRequestV1,
  AlbumItemsHeldV1,
  AlbumListV1,
  AlbumMediaItemsRequestV1,
  AlbumV1,
  CreateAlbumRequestV1,
  EmptyV1,
  ListAlbumMediaItemsRequestV1,
  ListAlbumsRequestV1,
  CheckSharedContentRequestV1,
  ListSharedAlbumMediaItemsRequestV1,
  MediaItemAlbumsRequestV1,
  MediaItemListV1,
  SharedAlbumItemsV1,
  SharedAlbumRequestV1,
  SharedContentV1,
  SharedAlbumUnlockV1,
  UnlockSharedAlbumRequestV1,
  UpdateAlbumRequestV1,
} from './generated/types';
import emptyV1 from './schemas/empty.v1.json';
import createAlbumRequestV1 from './schemas/library-album-create-request.v1.json';
import albumIdRequestV1 from './schemas/library-album-id-request.v1.json';
import addAlbumMemberRequestV1 from './schemas/library-album-member-add-request.v1.json';
import albumMemberListV1 from './schemas/library-album-member-list.v1.json';
import removeAlbumMemberRequestV1 from './schemas/library-album-member-remove-request.v1.json';
import albumMemberV1 from './schemas/library-album-member.v1.json';
import checkMemberContentRequestV1 from './schemas/library-member-content-request.v1.json';
import listAlbumMediaItemsRequestV1 from './schemas/library-album-items-list-request.v1.json';
import albumMediaItemsRequestV1 from './schemas/library-album-items-request.v1.json';
import albumItemsHeldV1 from './schemas/library-album-items-held.v1.json';
import listAlbumsRequestV1 from './schemas/library-album-list-request.v1.json';
import albumListV1 from './schemas/library-album-list.v1.json';
import updateAlbumRequestV1 from './schemas/library-album-update-request.v1.json';
import albumV1 from './schemas/library-album.v1.json';
import mediaItemAlbumsRequestV1 from './schemas/library-media-item-albums-request.v1.json';
import sharedAlbumRequestV1 from './schemas/library-shared-album-request.v1.json';
import checkSharedContentRequestV1 from './schemas/library-shared-content-request.v1.json';
import sharedContentV1 from './schemas/library-shared-content.v1.json';
import listSharedAlbumMediaItemsRequestV1 from './schemas/library-shared-items-request.v1.json';
import sharedAlbumItemsV1 from './schemas/library-shared-items.v1.json';
import unlockSharedAlbumRequestV1 from './schemas/library-shared-unlock-request.v1.json';
import sharedAlbumUnlockV1 from './schemas/library-shared-unlock.v1.json';
import mediaItemListV1 from './schemas/media-item-list.v1.json';
import mediaItemV1 from './schemas/media-item.v1.json';
import { mediaMetadataSchema } from './media-metadata';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref` (an album embeds its cover media item, which embeds its metadata).
registerSchemas([mediaMetadataSchema, mediaItemV1, albumV1, albumMemberV1]);

/**
 * The library service: albums, their membership and shared albums. It owns only albums and
 * memberships; media items come from the media service (`trove.v1.media.getMany`) and it follows
 * their trash/restore/purge through the media events.
 */

// ---- library: albums -------------------------------------------------------------------------
export const createAlbumRpc = defineRpc<CreateAlbumRequestV1, AlbumV1>({
  subject: 'trove.v1.library.albums.create',
  service: 'library',
  callers: ['gateway'],
  summary: "Creates an album of the caller; a cover item (one of the caller's, else not found) becomes its first item.",
  request: createAlbumRequestV1,
  response: albumV1,
});

export const listAlbumsRpc = defineRpc<ListAlbumsRequestV1, AlbumListV1>({
  subject: 'trove.v1.library.albums.list',
  service: 'library',
  callers: ['gateway'],
  summary:
    "One page of the caller's albums, sorted by name, createdAt or updatedAt (- descending), filtered by shared and hidden.",
  request: listAlbumsRequestV1,
  response: albumListV1,
});

export const getAlbumRpc = defineRpc<AlbumIdRequestV1, AlbumV1>({
  subject: 'trove.v1.library.albums.get',
  service: 'library',
  callers: ['gateway'],
  summary: "One of the caller's albums with its item count and cover item; not found otherwise.",
  request: albumIdRequestV1,
  response: albumV1,
});

export const updateAlbumRpc = defineRpc<UpdateAlbumRequestV1, EmptyV1>({
  subject: 'trove.v1.library.albums.update',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Changes an album's name, description, cover (an item in the album), shared and hidden flags; unsharing stops its shared link at once.",
  request: updateAlbumRequestV1,
  response: emptyV1,
});

export const deleteAlbumRpc = defineRpc<AlbumIdRequestV1, EmptyV1>({
  subject: 'trove.v1.library.albums.delete',
  service: 'library',
  callers: ['gateway'],
  summary: 'Deletes an album and its memberships; the media items stay.',
  request: albumIdRequestV1,
  response: emptyV1,
});

export const listAlbumMediaItemsRpc = defineRpc<ListAlbumMediaItemsRequestV1, MediaItemListV1>({
  subject: 'trove.v1.library.albums.items.list',
  service: 'library',
  callers: ['gateway'],
  summary: "One page of an album's items in the order they were added (oldest first), trashed items left out.",
  request: listAlbumMediaItemsRequestV1,
  response: mediaItemListV1,
});

export const addAlbumMediaItemsRpc = defineRpc<AlbumMediaItemsRequestV1, EmptyV1>({
  subject: 'trove.v1.library.albums.items.add',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Appends some of the caller's items to an album in the given order (idempotent); not found, and nothing changes, when any id is not the caller's item.",
  request: albumMediaItemsRequestV1,
  response: emptyV1,
});

export const removeAlbumMediaItemsRpc = defineRpc<AlbumMediaItemsRequestV1, EmptyV1>({
  subject: 'trove.v1.library.albums.items.remove',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Removes items from an album (idempotent); not found, and nothing changes, when any id is not the caller's item.",
  request: albumMediaItemsRequestV1,
  response: emptyV1,
});

export const albumItemsHeldRpc = defineRpc<AlbumMediaItemsRequestV1, AlbumItemsHeldV1>({
  subject: 'trove.v1.library.albums.items.held',
  service: 'library',
  callers: ['gateway'],
  summary:
    'Which of the asked items an album holds as the caller sees it (its list: trashed left out, hidden only their own); not found unless the caller owns the album or is its member, and when an asked item is neither theirs nor held for them.',
  request: albumMediaItemsRequestV1,
  response: albumItemsHeldV1,
});

export const listMediaItemAlbumsRpc = defineRpc<MediaItemAlbumsRequestV1, AlbumListV1>({
  subject: 'trove.v1.library.albums.ofMediaItem',
  service: 'library',
  callers: ['gateway'],
  summary: "The caller's albums holding one of the caller's items, ordered by name.",
  request: mediaItemAlbumsRequestV1,
  response: albumListV1,
});

// ---- library: members (other users an album is shared with) ---------------------------------
export const addAlbumMemberRpc = defineRpc<AddAlbumMemberRequestV1, AlbumMemberV1>({
  subject: 'trove.v1.library.albums.members.add',
  service: 'library',
  callers: ['gateway'],
  summary:
    "The album's owner shares it with another user as viewer or contributor (adding again changes the role); a member asking is forbidden, a stranger gets not found, the owner naming themself a bad request.",
  request: addAlbumMemberRequestV1,
  response: albumMemberV1,
});

export const listAlbumMembersRpc = defineRpc<AlbumIdRequestV1, AlbumMemberListV1>({
  subject: 'trove.v1.library.albums.members.list',
  service: 'library',
  callers: ['gateway'],
  summary: "An album's members in the order added, for its owner and its members; not found for anyone else.",
  request: albumIdRequestV1,
  response: albumMemberListV1,
});

export const removeAlbumMemberRpc = defineRpc<RemoveAlbumMemberRequestV1, EmptyV1>({
  subject: 'trove.v1.library.albums.members.remove',
  service: 'library',
  callers: ['gateway'],
  summary:
    'Ends a membership at once (the owner removes anyone, a member only themself: else forbidden); not found when the caller cannot see the album or the user is no member.',
  request: removeAlbumMemberRequestV1,
  response: emptyV1,
});

export const checkMemberContentRpc = defineRpc<CheckMemberContentRequestV1, SharedContentV1>({
  subject: 'trove.v1.library.albums.checkContent',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Whether a member's (or owner's) album-scoped content URL still opens: the user may see the album and it shows them the item (answers the album's owner); not found otherwise.",
  request: checkMemberContentRequestV1,
  response: sharedContentV1,
});

// ---- library: sharing (no user: the album id is the link) -------------------------------------
export const getSharedAlbumRpc = defineRpc<SharedAlbumRequestV1, AlbumV1>({
  subject: 'trove.v1.library.sharing.get',
  service: 'library',
  callers: ['gateway'],
  summary:
    'A shared album for anyone, counting and covering only items that are neither trashed nor hidden; not found unless it exists and is shared.',
  request: sharedAlbumRequestV1,
  response: albumV1,
});

export const listSharedAlbumMediaItemsRpc = defineRpc<ListSharedAlbumMediaItemsRequestV1, SharedAlbumItemsV1>({
  subject: 'trove.v1.library.sharing.items',
  service: 'library',
  callers: ['gateway'],
  summary:
    "One page of a shared album's items for anyone (order added, trashed and hidden items left out), with its owner and location setting; not found unless it exists and is shared.",
  request: listSharedAlbumMediaItemsRequestV1,
  response: sharedAlbumItemsV1,
});

export const checkSharedContentRpc = defineRpc<CheckSharedContentRequestV1, SharedContentV1>({
  subject: 'trove.v1.library.sharing.checkContent',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Whether a shared album's signed content URL still opens: the album is shared and holds the item, neither trashed nor hidden (answers the owner and the location setting); not found otherwise.",
  request: checkSharedContentRequestV1,
  response: sharedContentV1,
});

export const unlockSharedAlbumRpc = defineRpc<UnlockSharedAlbumRequestV1, SharedAlbumUnlockV1>({
  subject: 'trove.v1.library.sharing.unlock',
  service: 'library',
  callers: ['gateway'],
  summary:
    "Checks a visitor's password for a shared link against its slow hash: answers the key an unlock token is bound to; unauthorized when wrong, not found unless the link answers.",
  request: unlockSharedAlbumRequestV1,
  response: sharedAlbumUnlockV1,
});

export const libraryContracts = [
  createAlbumRpc,
  listAlbumsRpc,
  getAlbumRpc,
  updateAlbumRpc,
  deleteAlbumRpc,
  listAlbumMediaItemsRpc,
  addAlbumMediaItemsRpc,
  removeAlbumMediaItemsRpc,
  albumItemsHeldRpc,
  listMediaItemAlbumsRpc,
  getSharedAlbumRpc,
  listSharedAlbumMediaItemsRpc,
  checkSharedContentRpc,
  addAlbumMemberRpc,
  listAlbumMembersRpc,
  removeAlbumMemberRpc,
  checkMemberContentRpc,
  unlockSharedAlbumRpc,
];
