/** A person's name as the API takes it: trimmed, 1 to 100 characters; else null. */
export const PERSON_NAME_MAX = 100;

export function personName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length > 0 && t.length <= PERSON_NAME_MAX ? t : null;
}
