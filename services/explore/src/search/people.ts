/**
 * The seam to the people of a library: the names of the people recognised in an item. Search
 * asks it whenever it (re)indexes an item, and is told through `Search.peopleChanged` when those
 * names may have changed (a person named or renamed, faces moved between people).
 */
export interface PeopleNames {
  /** The names of the named people in the user's item (none when nobody in it has a name). */
  namesOf(userId: string, mediaItemId: string): Promise<string[]>;
}

/** No people yet: nothing to add to any item. */
export const NO_PEOPLE: PeopleNames = { namesOf: async () => [] };
