import {
  mediaProcessedEvent,
  mediaPurgedEvent,
  mediaRestoredEvent,
  mediaTrashedEvent,
  mediaUpdatedEvent,
  peopleRegroupRequestedEvent,
  searchRebuildRequestedEvent,
  userDeletedEvent,
} from '@trove/proto-events';
import type { MediaItemChangedV1, MediaItemProcessedV1 } from '@trove/proto-events';
import type { Bus, ConsumerHandle, Logger } from '@trove/kit';
import { isForged } from './forged';
import type { ExploreServices } from './wire';

/** The durable consumers of one follower of the media and user events: one per event, named `<prefix>-<event>`. */
const consumersOf = <P extends string>(prefix: P) =>
  ({
    processed: `${prefix}-media-processed`,
    updated: `${prefix}-media-updated`,
    trashed: `${prefix}-media-trashed`,
    restored: `${prefix}-media-restored`,
    purged: `${prefix}-media-purged`,
    userDeleted: `${prefix}-user-deleted`,
  }) as const;

/**
 * Durable consumer names, shared by every replica of the explore service: places, things and
 * people follow the events under `explore-…`, search under its own `search-…` (so one never holds
 * the other back), and search alone follows a job's rebuild.
 */
export const CONSUMERS = {
  explore: { ...consumersOf('explore'), regroup: 'explore-people-regroup-requested' },
  search: { ...consumersOf('search'), rebuild: 'search-rebuild-requested' },
} as const;

/** What one follower does on each event; `what` names what it keeps, for the logs. */
interface Follower {
  consumers: ReturnType<typeof consumersOf>;
  what: string;
  processed(result: MediaItemProcessedV1): Promise<void>;
  changed(userId: string, mediaItemId: string): Promise<void>;
  purged(userId: string, mediaItemId: string): Promise<void>;
  userDeleted(userId: string): Promise<void>;
}

/**
 * The workers' results (where items belong, whose faces they show, their words), every change of
 * an item (updated, trashed and restored alike: the follower asks the media service for its current
 * state), purges and user deletions, under the follower's durable consumers. Every handler is
 * idempotent; a user's deletion is retried until it is done.
 */
function follow(bus: Bus, f: Follower, log: Logger): Array<Promise<ConsumerHandle>> {
  const changed = async ({ userId, mediaItemId }: MediaItemChangedV1) => {
    await f.changed(userId, mediaItemId);
    log.debug({ mediaItemId }, `media item changed: refreshed in ${f.what}`);
  };
  return [
    bus.consume(mediaProcessedEvent, { durable: f.consumers.processed }, async (result) => {
      if (isForged(result, log)) return;
      await f.processed(result);
      log.debug(
        { mediaItemId: result.mediaItemId, faces: result.faces?.length },
        `media item processed: filed in ${f.what}`,
      );
    }),
    bus.consume(mediaUpdatedEvent, { durable: f.consumers.updated }, changed),
    bus.consume(mediaTrashedEvent, { durable: f.consumers.trashed }, changed),
    bus.consume(mediaRestoredEvent, { durable: f.consumers.restored }, changed),
    bus.consume(mediaPurgedEvent, { durable: f.consumers.purged }, async ({ userId, mediaItemId }) => {
      await f.purged(userId, mediaItemId);
      log.debug({ mediaItemId }, `media item purged: removed from ${f.what}`);
    }),
    bus.consume(
      userDeletedEvent,
      { durable: f.consumers.userDeleted, concurrency: 1, retryForever: true },
      async ({ userId }) => {
        await f.userDeleted(userId);
        log.info({ deletedUserId: userId }, `user deleted: removed from ${f.what}`);
      },
    ),
  ];
}

/**
 * Every consumer of the explore service. People come after places and things in each event (they
 * read the places-things record of the item); people also follow a faces job's regrouping request;
 * search follows the same events on its own, plus a job's rebuild of a user's index.
 */
export function consumeEvents(
  bus: Bus,
  { placesThings, people, search }: ExploreServices,
  log: Logger,
): Promise<ConsumerHandle[]> {
  return Promise.all([
    ...follow(
      bus,
      {
        consumers: CONSUMERS.explore,
        what: 'places, things and people',
        processed: async (result) => {
          await placesThings.itemProcessed(result);
          await people.itemProcessed(result);
        },
        changed: async (userId, mediaItemId) => {
          await placesThings.itemChanged(userId, mediaItemId);
          await people.itemChanged(userId, mediaItemId);
        },
        purged: async (userId, mediaItemId) => {
          await placesThings.itemPurged(userId, mediaItemId);
          await people.itemPurged(userId, mediaItemId);
        },
        userDeleted: async (userId) => {
          await placesThings.userDeleted(userId);
          await people.userDeleted(userId);
        },
      },
      log,
    ),
    ...follow(
      bus,
      {
        consumers: CONSUMERS.search,
        what: 'search',
        processed: (result) => search.itemProcessed(result),
        changed: (userId, mediaItemId) => search.itemChanged(userId, mediaItemId),
        purged: (userId, mediaItemId) => search.itemPurged(userId, mediaItemId),
        userDeleted: (userId) => search.userDeleted(userId),
      },
      log,
    ),
    // A faces job is done: the user's faces are grouped again (one user at a time; it may take a while).
    bus.consume(peopleRegroupRequestedEvent, { durable: CONSUMERS.explore.regroup, concurrency: 1 }, async (r) => {
      log.info({ jobId: r.jobId, ...(await people.regroup(r.userId)) }, "a job's people regrouping done");
    }),
    bus.consume(searchRebuildRequestedEvent, { durable: CONSUMERS.search.rebuild, concurrency: 1 }, async (r) => {
      log.info({ jobId: r.jobId, items: await search.rebuild(r.userId) }, "a job's search rebuild done");
    }),
  ]);
}
