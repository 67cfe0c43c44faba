import { isUuid } from './ids';

/** A person's name as the API takes it: trimmed, 1 to 100 characters; else null. */
export const PERSON_NAME_MAX = 100;

export function personName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length > 0 && t.length <= PERSON_NAME_MAX ? t : null;
}

/** How a person is called on the page: their name, else how many photos they are in. */
export function personLabel(person: { name: string | null; mediaItemsCount: number }): string {
  return (
    person.name || `unnamed person (${person.mediaItemsCount === 1 ? '1 item' : `${person.mediaItemsCount} items`})`
  );
}

/** The address of the people list: only the hidden ones, picking people to merge, after a merge. */
export function peopleListPath({
  hidden = false,
  select = false,
  merged,
}: { hidden?: boolean; select?: boolean; merged?: string } = {}): string {
  const params = new URLSearchParams();
  if (hidden) params.set('hidden', 'true');
  if (select) params.set('select', '1');
  if (merged) params.set('merged', merged);
  const query = params.toString();
  return query ? `/explore/people?${query}` : '/explore/people';
}

/** The API's most people merged at once. */
const MERGE_MAX = 100;

/** A merge form's people (`person`, every one) and the one that stays (`into`); null when it does not make one. */
export function mergeRequest(form: FormData): { into: string; others: string[] } | null {
  const into = form.get('into');
  const people = [...new Set(form.getAll('person'))];
  if (form.get('intent') !== 'merge' || !isUuid(into) || !people.includes(into)) return null;
  const others = people.filter((id): id is string => id !== into && isUuid(id));
  return others.length === people.length - 1 && others.length >= 1 && others.length <= MERGE_MAX
    ? { into, others }
    : null;
}

/** A face correction a person page's form asks for: "not this person", or the face moved to another person. */
export type FaceCorrection = { kind: 'remove'; faceId: string } | { kind: 'move'; faceId: string; personId: string };

/**
 * Reads intent=not-person (face) or intent=move-face (face, to): null when it is neither, or an id
 * is not one, or the face would "move" to the person it is on (`current`).
 */
export function faceCorrection(form: FormData, current: string): FaceCorrection | null {
  const intent = form.get('intent');
  const faceId = form.get('face');
  if (!isUuid(faceId)) return null;
  if (intent === 'not-person') return { kind: 'remove', faceId };
  const to = form.get('to');
  if (intent === 'move-face' && isUuid(to) && to !== current) return { kind: 'move', faceId, personId: to };
  return null;
}
