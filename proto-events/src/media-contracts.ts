import { STREAMS, deadLetterSubject, defineEvent, defineRpc, defineWork } from './contract';
import type { MessageContract } from './contract';
import type {
  MediaExistRequestV1,
  MediaExistV1,
  ContentLocationV1,
  CreateMediaItemRequestV1,
  EmptyV1,
  EmptyTrashRequestV1,
  GetMediaItemsRequestV1,
  ListMediaItemsRequestV1,
  LocateContentRequestV1,
  MediaItemChangedV1,
  MediaItemCreatedV1,
  MediaItemIdRequestV1,
  MediaItemListV1,
  MediaItemProcessedV1,
  MediaItemV1,
  ProcessMediaItemV1,
  SetMediaFlagRequestV1,
  PurgeMediaItemsRequestV1,
  UpdateMediaItemRequestV1,
  YearsAgoRequestV1,
  MediaItemWalkV1,
  MediaUsageRequestV1,
  MediaUsageV1,
  TimelineBucketsRequestV1,
  TimelineBucketsV1,
  TrashEmptyingV1,
  WalkMediaItemsRequestV1,
} from './generated/types';
import emptyV1 from './schemas/empty.v1.json';
import mediaChangedV1 from './schemas/media-changed.v1.json';
import contentLocationV1 from './schemas/media-content-location.v1.json';
import createMediaItemRequestV1 from './schemas/media-create-request.v1.json';
import mediaItemCreatedV1 from './schemas/media-created.v1.json';
import getMediaItemsRequestV1 from './schemas/media-get-many-request.v1.json';
import purgeMediaItemsRequestV1 from './schemas/media-purge-request.v1.json';
import emptyTrashRequestV1 from './schemas/media-empty-trash-request.v1.json';
import trashEmptyingV1 from './schemas/media-trash-emptying.v1.json';
import mediaItemIdRequestV1 from './schemas/media-id-request.v1.json';
import mediaItemListV1 from './schemas/media-item-list.v1.json';
import mediaItemV1 from './schemas/media-item.v1.json';
import listMediaItemsRequestV1 from './schemas/media-list-request.v1.json';
import locateContentRequestV1 from './schemas/media-locate-request.v1.json';
import mediaPlaceV1 from './schemas/media-place.v1.json';
import processMediaItemV1 from './schemas/media-process.v1.json';
import mediaItemProcessedV1 from './schemas/media-processed.v1.json';
import setMediaFlagRequestV1 from './schemas/media-set-flag-request.v1.json';
import updateMediaItemRequestV1 from './schemas/media-update-request.v1.json';
import yearsAgoRequestV1 from './schemas/media-years-ago-request.v1.json';
import walkMediaItemsRequestV1 from './schemas/media-walk-request.v1.json';
import mediaItemWalkV1 from './schemas/media-walk.v1.json';
import mediaExistRequestV1 from './schemas/media-exist-request.v1.json';
import mediaExistV1 from './schemas/media-exist.v1.json';
import mediaUsageRequestV1 from './schemas/media-usage-request.v1.json';
import mediaUsageV1 from './schemas/media-usage.v1.json';
import timelineBucketsRequestV1 from './schemas/media-timeline-request.v1.json';
import timelineBucketsV1 from './schemas/media-timeline.v1.json';
import { mediaMetadataSchema } from './media-metadata';
import { registerSchemas } from './validate';

// Schemas other schemas point at with `$ref`.
registerSchemas([mediaMetadataSchema, mediaItemV1, mediaPlaceV1]);

/** The place of a processed item (MediaPlaceV1), for validating one on its own. */
export const mediaPlaceSchema = mediaPlaceV1;

/** Blob keys of one item: the original and what the worker derives from it. */
export function mediaBlobKey(
  userId: string,
  mediaItemId: string,
  variant: 'original' | 'preview' | 'thumbnail' | 'playback',
): string {
  return `media/${userId}/${mediaItemId}/${variant}`;
}

/** Every blob of one item (original, derivatives, face thumbnails) lives under this prefix (removed when it is purged). */
export function mediaItemBlobPrefix(userId: string, mediaItemId: string): string {
  return `media/${userId}/${mediaItemId}/`;
}

/**
 * The blob keys a processed result names that are not its item's own: outside
 * `media/<userId>/<mediaItemId>/`, or with an empty, `.` or `..` segment after it. A worker only ever
 * stores an item's derivatives under its prefix, so a result naming any other key is forged (a
 * compromised worker pointing one user's item at another user's original): media and explore ignore it.
 */
export function foreignBlobKeys(
  result: Pick<MediaItemProcessedV1, 'userId' | 'mediaItemId' | 'variants' | 'faces'>,
): string[] {
  const prefix = mediaItemBlobPrefix(result.userId, result.mediaItemId);
  const keys = [...Object.values(result.variants ?? {}), ...(result.faces ?? []).map((f) => f.thumbnailKey)].filter(
    (k): k is string => typeof k === 'string',
  );
  const own = (key: string) =>
    key.startsWith(prefix) &&
    key
      .slice(prefix.length)
      .split('/')
      .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
  return keys.filter((key) => !own(key));
}

/** Where the item's face thumbnails are (every one of them, whatever its index). */
export function faceThumbnailsPrefix(userId: string, mediaItemId: string): string {
  return `${mediaItemBlobPrefix(userId, mediaItemId)}faces/`;
}

/** The square WebP thumbnail of the item's `index`-th face (0-based, the order of the processed result's `faces`). */
export function faceThumbnailKey(userId: string, mediaItemId: string, index: number): string {
  return `${faceThumbnailsPrefix(userId, mediaItemId)}${index}.webp`;
}

/** Every blob of one user lives under this prefix (removed when the user is deleted). */
export function userBlobPrefix(userId: string): string {
  return `media/${userId}/`;
}

// ---- media: request/reply --------------------------------------------------------------------
export const createMediaItemRpc = defineRpc<CreateMediaItemRequestV1, MediaItemCreatedV1>({
  subject: 'trove.v1.media.create',
  service: 'media',
  callers: ['gateway'],
  summary:
    'Registers an uploaded original as a PROCESSING item and queues its processing; conflict (details.id) when the user already has identical content.',
  request: createMediaItemRequestV1,
  response: mediaItemCreatedV1,
});

export const getMediaItemRpc = defineRpc<MediaItemIdRequestV1, MediaItemV1>({
  subject: 'trove.v1.media.get',
  service: 'media',
  callers: ['gateway'],
  summary: "One of the caller's items (also when hidden or trashed); not found otherwise.",
  request: mediaItemIdRequestV1,
  response: mediaItemV1,
});

export const listMediaItemsRpc = defineRpc<ListMediaItemsRequestV1, MediaItemListV1>({
  subject: 'trove.v1.media.list',
  service: 'media',
  callers: ['gateway'],
  summary: 'One page of a view (library, favourites, hidden, trash) with optional type/category/status filters.',
  request: listMediaItemsRequestV1,
  response: mediaItemListV1,
});

export const updateMediaItemRpc = defineRpc<UpdateMediaItemRequestV1, EmptyV1>({
  subject: 'trove.v1.media.update',
  service: 'media',
  callers: ['gateway'],
  summary: "Changes an item's description, favourite and hidden flags.",
  request: updateMediaItemRequestV1,
  response: emptyV1,
});

export const setMediaFlagRpc = defineRpc<SetMediaFlagRequestV1, EmptyV1>({
  subject: 'trove.v1.media.setFlag',
  service: 'media',
  callers: ['gateway'],
  summary: 'Sets or clears favourite, hidden or deleted (trash/restore) on several items, all or nothing.',
  request: setMediaFlagRequestV1,
  response: emptyV1,
});

export const purgeMediaItemsRpc = defineRpc<PurgeMediaItemsRequestV1, EmptyV1>({
  subject: 'trove.v1.media.purge',
  service: 'media',
  callers: ['gateway'],
  summary: 'Deletes trashed items for good now (blobs, then the purged event, then the document), all or nothing.',
  request: purgeMediaItemsRequestV1,
  response: emptyV1,
});

export const emptyTrashRpc = defineRpc<EmptyTrashRequestV1, TrashEmptyingV1>({
  subject: 'trove.v1.media.emptyTrash',
  service: 'media',
  callers: ['gateway'],
  summary: "Empties a user's trash: its items leave the trash now and are deleted for good in the background.",
  request: emptyTrashRequestV1,
  response: trashEmptyingV1,
});

export const yearsAgoRpc = defineRpc<YearsAgoRequestV1, MediaItemListV1>({
  subject: 'trove.v1.media.yearsAgo',
  service: 'media',
  callers: ['gateway'],
  summary: 'Items taken on this month and day in earlier years, newest first.',
  request: yearsAgoRequestV1,
  response: mediaItemListV1,
});

export const getMediaItemsRpc = defineRpc<GetMediaItemsRequestV1, MediaItemListV1>({
  subject: 'trove.v1.media.getMany',
  service: 'media',
  callers: ['library', 'explore', 'gateway'],
  summary:
    "Several of one user's items by id (order kept, others' ids left out), for composing album and explore answers and reading an item's current state.",
  request: getMediaItemsRequestV1,
  response: mediaItemListV1,
});

export const locateContentRpc = defineRpc<LocateContentRequestV1, ContentLocationV1>({
  subject: 'trove.v1.media.locateContent',
  service: 'media',
  callers: ['gateway'],
  summary: 'The blob key and content type of an original, preview or thumbnail (not found until it exists).',
  request: locateContentRequestV1,
  response: contentLocationV1,
});

export const walkMediaItemsRpc = defineRpc<WalkMediaItemsRequestV1, MediaItemWalkV1>({
  subject: 'trove.v1.media.walk',
  service: 'media',
  callers: ['jobs'],
  summary:
    "A batch of one user's items in (createdAt, id) order after a given item, with the walk's total: what a job queues work for.",
  request: walkMediaItemsRequestV1,
  response: mediaItemWalkV1,
});

export const mediaExistRpc = defineRpc<MediaExistRequestV1, MediaExistV1>({
  subject: 'trove.v1.media.exist',
  service: 'media',
  callers: ['gateway'],
  summary:
    "Which of these SHA-256 digests the user already has (trashed items count), with the items' ids: an uploader skips them.",
  request: mediaExistRequestV1,
  response: mediaExistV1,
});

export const mediaUsageRpc = defineRpc<MediaUsageRequestV1, MediaUsageV1>({
  subject: 'trove.v1.media.usage',
  service: 'media',
  callers: ['gateway'],
  summary: "A user's storage use: the bytes of their originals, trash included (kept as a running total per user).",
  request: mediaUsageRequestV1,
  response: mediaUsageV1,
});

export const timelineBucketsRpc = defineRpc<TimelineBucketsRequestV1, TimelineBucketsV1>({
  subject: 'trove.v1.media.timeline',
  service: 'media',
  callers: ['gateway'],
  summary: "The caller's library counted per month of creation time (UTC), newest first: the timeline scrubber.",
  request: timelineBucketsRequestV1,
  response: timelineBucketsV1,
});

// ---- media: work and events ------------------------------------------------------------------
export const processMediaItemWork = defineWork<ProcessMediaItemV1>({
  subject: 'work.v1.media.process',
  publishers: ['media', 'jobs'],
  consumers: ['worker'],
  summary:
    "Process one original: metadata, previews, thumbnail, placeholder, category, web-playable video, place, things (the components it names: an upload's per its owner's features, a job's).",
  payload: processMediaItemV1,
});

export const mediaProcessedEvent = defineEvent<MediaItemProcessedV1>({
  subject: 'events.v1.media.processed',
  publishers: ['worker'],
  consumers: ['media', 'explore'],
  summary:
    "A worker's result for one item; media applies it and marks the item READY; explore files the item under its place and things.",
  payload: mediaItemProcessedV1,
});

/** Work items that failed for good (a corrupt file at once, else after every delivery): media marks the item FAILED with the reason. */
export const mediaProcessingFailedDeadLetter: MessageContract<ProcessMediaItemV1> = {
  kind: 'event',
  stream: STREAMS.deadLetters.name,
  subject: deadLetterSubject(processMediaItemWork.subject),
  publishers: ['worker'],
  consumers: ['media', 'jobs'],
  summary:
    "A processing work item failed for good: the worker publishes it at once for a corrupt, unsupported or too large file (not a job's), its bus after the last failed delivery; media marks the item FAILED (reason in the Trove-Dlq-Reason header), unless a job queued it: then jobs counts it done.",
  payload: processMediaItemV1,
};

const changed = (what: string, summary: string, consumers: string[]) =>
  defineEvent<MediaItemChangedV1>({
    subject: `events.v1.media.${what}`,
    publishers: ['media'],
    consumers,
    summary,
    payload: mediaChangedV1,
  });

export const mediaUpdatedEvent = changed('updated', 'An item changed (processing finished, description or flags).', [
  'library',
  'explore',
]);
export const mediaTrashedEvent = changed('trashed', 'An item moved to the trash.', ['library', 'explore']);
export const mediaRestoredEvent = changed('restored', 'An item came back from the trash.', ['library', 'explore']);
export const mediaPurgedEvent = changed(
  'purged',
  'An item was deleted for good (retention elapsed or its user was deleted): its blobs are gone.',
  ['library', 'explore'],
);

export const mediaContracts = [
  createMediaItemRpc,
  getMediaItemRpc,
  listMediaItemsRpc,
  updateMediaItemRpc,
  setMediaFlagRpc,
  purgeMediaItemsRpc,
  emptyTrashRpc,
  mediaExistRpc,
  mediaUsageRpc,
  timelineBucketsRpc,
  yearsAgoRpc,
  getMediaItemsRpc,
  locateContentRpc,
  walkMediaItemsRpc,
  processMediaItemWork,
  mediaProcessedEvent,
  mediaProcessingFailedDeadLetter,
  mediaUpdatedEvent,
  mediaTrashedEvent,
  mediaRestoredEvent,
  mediaPurgedEvent,
];
