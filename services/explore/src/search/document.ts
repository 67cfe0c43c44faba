/** Where a word of an item was found: ranking counts the fields a query matches. */
export const FIELDS = ['filename', 'description', 'camera', 'date', 'place', 'things', 'people', 'text'] as const;
export type Field = (typeof FIELDS)[number];
/** The normalised words of each field (see text.ts). */
export type FieldWords = Record<Field, string[]>;

/**
 * One media item as search knows it. `_id` is the media item's id. `terms` holds every word of
 * every field and each word's beginnings (what a query word is looked up by, where the store answers
 * queries: MongoDB; empty where they are answered in memory); `fields` keeps the words per field,
 * for ranking and for the index in memory.
 */
export interface SearchDoc {
  _id: string;
  userId: string;
  /** When it was taken: among equally good matches, newest first. */
  creationTime: Date;
  fields: FieldWords;
  terms: string[];
  /** Neither hidden nor trashed, as the media service last answered: the only items found. */
  visible: boolean;
  /** The media item's `updatedAt` when its filename, description and flags were read (null: not yet); an older read never overwrites a newer one. */
  stateVersion: Date | null;
  /** Bumped by every write: a write only lands on the version it read. */
  revision: number;
}
