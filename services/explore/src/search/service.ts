import type { MediaItemProcessedV1, MediaPlaceV1 } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { MediaItemState, MediaStates } from '../ports/media';
import { NO_PEOPLE } from './people';
import type { PeopleNames } from './people';
import type { FieldWords } from './document';
import type { SearchRepository } from './repository';
import { dateWords, words } from './text';

/** More words in a query than this are not looked at (a query is at most 200 characters anyway). */
export const MAX_QUERY_WORDS = 16;

const placeWords = (place: MediaPlaceV1 | null): string[] =>
  place ? words([place.name, place.town, place.city, place.state, place.country].filter(Boolean).join(' ')) : [];

/**
 * Search over each user's items. Rules:
 * - an item is found by its filename, description, camera make and model, the date it was taken
 *   (year, English month name, day), its place's names, its things, the names of the people in it
 *   and the words read in it, all normalised (lower case, diacritics folded) into words;
 * - every query word must match (AND), as a whole word or as the beginning of one when it has 3
 *   letters or more; a query without any word is a bad request;
 * - ranking: more fields matched first, then more query words matched whole, then newest taken;
 * - only items neither trashed nor hidden, as the media service answers when asked after each change;
 * - the worker's facts come from its result (a result without `place`, `things` or `words` keeps
 *   what the item had), the user's (filename, description) from the media service;
 * - everything is scoped to the user.
 */
export class SearchService {
  constructor(
    private readonly repo: SearchRepository,
    private readonly media: MediaStates,
    private readonly people: PeopleNames = NO_PEOPLE,
  ) {}

  /** Ids of a page of the user's visible items matching `q`, best first. */
  async search(userId: string, q: string, page: number, limit: number): Promise<string[]> {
    const query = words(q).slice(0, MAX_QUERY_WORDS);
    if (query.length === 0) throw badRequest('q has no word to search for');
    const best = await this.repo.visibleMatches(userId, query, page * limit);
    return best.slice((page - 1) * limit).map((match) => match.id);
  }

  // ---- what happens elsewhere ----------------------------------------------------------------
  // Each is idempotent (events come at least once) and safe in any order against the others.

  /** A worker's result: index what it found, then what the media service and the people say now. */
  async itemProcessed(result: MediaItemProcessedV1): Promise<void> {
    const { userId, mediaItemId, metadata } = result;
    if (await this.repo.isUserDeleted(userId)) return;
    const fields: Partial<FieldWords> = {
      camera: words([metadata.cameraMake, metadata.cameraModel].filter(Boolean).join(' ')),
      date: dateWords(metadata.creationTime),
    };
    if (result.place !== undefined) fields.place = placeWords(result.place);
    if (result.things !== undefined) fields.things = words(result.things.map((t) => t.label).join(' '));
    if (result.words !== undefined) fields.text = words(result.words.join(' '));
    await this.repo.change(userId, mediaItemId, () => ({ fields, creationTime: new Date(metadata.creationTime) }), {
      create: true,
    });
    // Read after writing: a change from now on has its own event (or call), which finds the item indexed.
    const texts = await this.media.stateOf(userId, mediaItemId);
    if (!texts) await this.repo.deleteItem(userId, mediaItemId);
    else await this.applyTexts(userId, mediaItemId, texts);
    await this.refreshPeople(userId, mediaItemId);
    // The user was deleted while this ran: whatever it created goes too.
    if (await this.repo.isUserDeleted(userId)) await this.repo.deleteUserData(userId);
  }

  /** The item was updated (its description…), trashed, hidden or restored: take its current state from the media service. */
  async itemChanged(userId: string, mediaItemId: string): Promise<void> {
    const texts = await this.media.stateOf(userId, mediaItemId);
    if (!texts) return this.itemPurged(userId, mediaItemId);
    await this.applyTexts(userId, mediaItemId, texts);
  }

  async itemPurged(userId: string, mediaItemId: string): Promise<void> {
    await this.repo.deleteItem(userId, mediaItemId);
  }

  /** The names of the people in these items may have changed (a person named or renamed, faces moved). */
  async peopleChanged(userId: string, mediaItemIds: string[]): Promise<void> {
    for (const id of new Set(mediaItemIds)) await this.refreshPeople(userId, id);
  }

  /**
   * Rebuilds the user's entries from what they draw on now: each indexed item's texts and state
   * from the media service and its people's names (a job's `search` component). What the worker
   * read (words, things, place) is re-indexed by the job's other components.
   */
  async rebuild(userId: string): Promise<number> {
    let done = 0;
    for (let after = ''; ;) {
      const ids = await this.repo.itemIdsAfter(userId, after, 200);
      if (ids.length === 0) return done;
      for (const id of ids) {
        await this.itemChanged(userId, id);
        await this.refreshPeople(userId, id);
      }
      done += ids.length;
      after = ids[ids.length - 1]!;
    }
  }

  async userDeleted(userId: string): Promise<void> {
    await this.repo.markUserDeleted(userId);
    await this.repo.deleteUserData(userId);
  }

  private async applyTexts(userId: string, mediaItemId: string, texts: MediaItemState): Promise<void> {
    await this.repo.change(userId, mediaItemId, (doc) =>
      doc.stateVersion && doc.stateVersion > texts.version
        ? null
        : {
            fields: { filename: words(texts.filename), description: words(texts.description ?? '') },
            visible: !texts.hidden && !texts.trashed,
            stateVersion: texts.version,
          },
    );
  }

  private async refreshPeople(userId: string, mediaItemId: string): Promise<void> {
    const people = words((await this.people.namesOf(userId, mediaItemId)).join(' '));
    await this.repo.change(userId, mediaItemId, (doc) =>
      sameWords(doc.fields.people, people) ? null : { fields: { people } },
    );
  }
}

const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
